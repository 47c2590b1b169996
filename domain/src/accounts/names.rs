//! The spec's display-name and initials rules (section 2, Header).

/// display_name, else first plus last name, else the part of the email before
/// the @, else "User".
pub fn display_name(custom: Option<&str>, first: &str, last: &str, email: Option<&str>) -> String {
    if let Some(custom) = custom.map(str::trim).filter(|name| !name.is_empty()) {
        return custom.to_owned();
    }
    let full = format!("{} {}", first.trim(), last.trim()).trim().to_owned();
    if !full.is_empty() {
        return full;
    }
    match email.and_then(|email| email.split('@').next()).map(str::trim).filter(|local| !local.is_empty()) {
        Some(local) => local.to_owned(),
        None => "User".to_owned(),
    }
}

/// First letters of first and last name, else the first letter of the email,
/// else "U"; always upper case.
pub fn initials(first: &str, last: &str, email: Option<&str>) -> String {
    let from_names: String = [first, last].iter().filter_map(|name| name.trim().chars().next()).collect();
    if !from_names.is_empty() {
        return from_names.to_uppercase();
    }
    match email.and_then(|email| email.trim().chars().next()) {
        Some(letter) => letter.to_uppercase().collect(),
        None => "U".to_owned(),
    }
}

/// The public name of a person on a task card: "First L." keeps full surnames
/// off public listings. Missing names fall back to the spec's "Anonymous User".
pub fn public_name(first: &str, last: &str) -> String {
    let first = first.trim();
    let last = last.trim();
    if first.is_empty() || last.is_empty() {
        return "Anonymous User".to_owned();
    }
    let last_initial: String = last.chars().next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    format!("{first} {last_initial}.")
}

/// A surname as public pages show it: its initial and a full stop ("L."), or empty.
pub fn surname_initial(last: &str) -> String {
    match last.trim().chars().next() {
        Some(letter) => format!("{}.", letter.to_uppercase()),
        None => String::new(),
    }
}

/// The name on a public profile: the chosen display name, else "First L." as
/// listings show it, else whichever name there is, else "User".
pub fn public_profile_name(custom: Option<&str>, first: &str, last: &str) -> String {
    if !first.trim().is_empty() && !last.trim().is_empty() {
        return display_name(custom, first, &surname_initial(last), None);
    }
    display_name(custom, first, last, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_name_prefers_the_chosen_display_name() {
        assert_eq!(display_name(Some("Sam the Handyman"), "Sam", "Lee", Some("sam@x.com")), "Sam the Handyman");
    }

    #[test]
    fn display_name_falls_back_to_first_and_last_name() {
        assert_eq!(display_name(None, "Sam", "Lee", Some("sam@x.com")), "Sam Lee");
        assert_eq!(display_name(Some("  "), "Sam", "", None), "Sam");
    }

    #[test]
    fn display_name_falls_back_to_email_local_part_then_user() {
        assert_eq!(display_name(None, "", "", Some("jo.b@x.com")), "jo.b");
        assert_eq!(display_name(None, " ", "", Some("@x.com")), "User");
        assert_eq!(display_name(None, "", "", None), "User");
    }

    #[test]
    fn initials_use_first_letters_of_names_then_email_then_u() {
        assert_eq!(initials("sam", "lee", Some("a@b.c")), "SL");
        assert_eq!(initials("", "", Some("zoe@b.c")), "Z");
        assert_eq!(initials("", "", None), "U");
        assert_eq!(initials("émile", "", None), "É");
    }

    #[test]
    fn public_name_shortens_the_surname_or_says_anonymous() {
        assert_eq!(public_name("Sam", "lee"), "Sam L.");
        assert_eq!(public_name("Sam", ""), "Anonymous User");
    }

    #[test]
    fn public_profiles_show_first_name_and_surname_initial() {
        assert_eq!(surname_initial(" lee"), "L.");
        assert_eq!(surname_initial(""), "");
        assert_eq!(public_profile_name(None, "Sam", "Lee"), "Sam L.");
        assert_eq!(public_profile_name(Some("Sam the Handyman"), "Sam", "Lee"), "Sam the Handyman");
        assert_eq!(public_profile_name(None, "Sam", ""), "Sam");
        assert_eq!(public_profile_name(None, "", ""), "User");
    }
}
