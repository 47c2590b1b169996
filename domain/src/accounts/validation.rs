//! Input rules of spec section 5 with its exact messages.

use serde::{Deserialize, Serialize};

use model::refusal::{FieldErrors, Invalid};

pub const PASSWORD_MIN_CHARS: usize = 6;
/// Argon2 work grows with input; an upper bound keeps a login from being a denial of service.
pub const PASSWORD_MAX_CHARS: usize = 256;
pub const SKILL_LEVEL_DEFAULT: u8 = 50;
const MAX_SKILLS: usize = 50;
const MAX_SKILL_NAME_CHARS: usize = 60;
const MAX_NAME_CHARS: usize = 100;
const MAX_BIO_CHARS: usize = 2000;
const MAX_SHORT_TEXT_CHARS: usize = 200;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Skill {
    pub name: String,
    /// Proficiency in percent, 1 to 100. Always in answers; a request may leave it out (50).
    #[serde(default = "default_skill_level")]
    #[schema(required = true)]
    pub level: i64,
}

fn default_skill_level() -> i64 {
    SKILL_LEVEL_DEFAULT as i64
}

/// Lower-cased, trimmed email when it looks like an address (`something@domain.tld`).
pub fn normalize_email(raw: &str) -> Result<String, &'static str> {
    let email = raw.trim();
    if email.is_empty() {
        return Err("Email is required");
    }
    let looks_valid = email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.split_once('.').is_some_and(|(host, tld)| !host.is_empty() && !tld.is_empty())
                && !domain.ends_with('.')
        });
    if looks_valid { Ok(email.to_lowercase()) } else { Err("Email is invalid") }
}

pub fn check_new_password(password: &str) -> Result<(), &'static str> {
    if password.is_empty() {
        Err("Password is required")
    } else if password.chars().count() < PASSWORD_MIN_CHARS {
        Err("Password must be at least 6 characters")
    } else if password.chars().count() > PASSWORD_MAX_CHARS {
        Err("Password must be at most 256 characters")
    } else {
        Ok(())
    }
}

/// Trims each skill and checks names and levels; duplicates (case-insensitive) are refused.
pub fn clean_skills(skills: &[Skill]) -> Result<Vec<Skill>, String> {
    if skills.len() > MAX_SKILLS {
        return Err(format!("You can list at most {MAX_SKILLS} skills"));
    }
    let mut cleaned: Vec<Skill> = Vec::with_capacity(skills.len());
    for skill in skills {
        let name = skill.name.trim();
        if name.is_empty() {
            return Err("Skill name is required".into());
        }
        if name.chars().count() > MAX_SKILL_NAME_CHARS {
            return Err(format!("Skill names must be at most {MAX_SKILL_NAME_CHARS} characters"));
        }
        if !(1..=100).contains(&skill.level) {
            return Err("Skill level must be between 1 and 100".into());
        }
        if cleaned.iter().any(|existing| existing.name.to_lowercase() == name.to_lowercase()) {
            return Err(format!("{name} is already in your skills"));
        }
        cleaned.push(Skill { name: name.to_owned(), level: skill.level });
    }
    Ok(cleaned)
}

pub const PASSES_FOR_THE_PLATFORM: &str = "Please choose a name that does not read as Taskhub or its staff";

/// Read as the platform wherever they appear, once a name is reduced to its letters.
const PLATFORM_PHRASES: [&str; 5] = ["taskhub", "trustandsafety", "trustsafety", "helpdesk", "customerservice"];

/// Words that, standing on their own in a name, read as the platform's staff.
const STAFF_WORDS: [&str; 10] = [
    "admin",
    "administrator",
    "operator",
    "moderator",
    "support",
    "staff",
    "official",
    "helpdesk",
    "security",
    "verified",
];

/// Whether a name people see (a display name, a first or last name, a company) passes for the
/// platform: "Taskhub" anywhere, however it is spaced, cased or spelled with look-alike
/// characters (full-width letters, `4` for `a`, `$` for `s`), or a staff word on its own
/// ("Support", "Admin", "Operator Jane"). "Supportive Sam" is a name; "Taskhub Support" is not.
pub fn passes_for_the_platform(name: &str) -> bool {
    let folded = folded(name);
    holds_a_platform_phrase(&folded)
        || folded.split(|c: char| !c.is_alphabetic()).any(|word| STAFF_WORDS.contains(&word))
}

/// Whether a person's own name (first or last, where "Staff" or "Admin" may be a real surname)
/// names the platform: "Taskhub" anywhere, however written.
pub fn names_the_platform(name: &str) -> bool {
    holds_a_platform_phrase(&folded(name))
}

fn holds_a_platform_phrase(folded: &str) -> bool {
    let letters: String = folded.chars().filter(|c| c.is_alphabetic()).collect();
    PLATFORM_PHRASES.iter().any(|phrase| letters.contains(phrase))
}

/// Lower case, compatibility-normalised (full-width letters become letters), look-alike digits
/// and symbols read as the letters they stand for.
fn folded(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '0' => 'o',
            '1' | '!' | '|' => 'i',
            '3' => 'e',
            '4' | '@' => 'a',
            '5' | '$' => 's',
            '7' | '+' => 't',
            other => other,
        })
        .collect()
}

/// Refuses on `field` a display or company name that passes for the platform.
pub fn check_public_name(fields: &mut FieldErrors, field: &str, name: Option<&str>) {
    if name.is_some_and(passes_for_the_platform) {
        fields.entry(field.into()).or_insert_with(|| PASSES_FOR_THE_PLATFORM.into());
    }
}

/// Refuses on `field` a first or last name that names the platform.
pub fn check_own_name(fields: &mut FieldErrors, field: &str, name: Option<&str>) {
    if name.is_some_and(names_the_platform) {
        fields.entry(field.into()).or_insert_with(|| PASSES_FOR_THE_PLATFORM.into());
    }
}

/// A required single-line text: trimmed, non-empty, bounded.
pub fn required_text(fields: &mut FieldErrors, field: &str, value: &str, missing: &str) -> String {
    let value = value.trim();
    if value.is_empty() {
        fields.insert(field.into(), missing.into());
    } else if value.chars().count() > MAX_NAME_CHARS {
        fields.insert(field.into(), format!("Must be at most {MAX_NAME_CHARS} characters"));
    }
    value.to_owned()
}

/// An optional text: trimmed, empty becomes `None`, bounded (bio allows more).
pub fn optional_text(fields: &mut FieldErrors, field: &str, value: Option<&str>) -> Option<String> {
    let value = value.map(str::trim).filter(|value| !value.is_empty())?;
    let limit = if field == "bio" { MAX_BIO_CHARS } else { MAX_SHORT_TEXT_CHARS };
    if value.chars().count() > limit {
        fields.insert(field.into(), format!("Must be at most {limit} characters"));
    }
    Some(value.to_owned())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccountType {
    Customer,
    Tasker,
}

impl AccountType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Customer => "customer",
            Self::Tasker => "tasker",
        }
    }

    pub fn parse(value: &str) -> Self {
        if value == "tasker" { Self::Tasker } else { Self::Customer }
    }
}

/// Turns collected field errors into the validation refusal.
pub fn finish(fields: FieldErrors) -> Result<(), Invalid> {
    Invalid::check(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_pass_for_the_platform_are_refused_and_ordinary_ones_kept() {
        for platform in [
            "Taskhub",
            "Taskhub Support",
            "TASKHUB",
            "T a s k h u b",
            "T4skhub",
            "Ta$khub Team",
            "ＴＡＳＫＨＵＢ",
            "Support",
            "Admin",
            "adm1n",
            "Operator Jane",
            "Jane (Moderator)",
            "Trust & Safety",
            "Help-desk",
        ] {
            assert!(passes_for_the_platform(platform), "{platform}");
        }
        for person in
            ["Sam the Handyman", "Supportive Sam", "Jane Operatorova", "Tash Hub", "Zoë", "O'Brien", "Adminton"]
        {
            assert!(!passes_for_the_platform(person), "{person}");
        }
        // A person's own name may be a staff word ("Staff" is a surname), never the platform's.
        assert!(!names_the_platform("Staff") && !names_the_platform("Operator"));
        assert!(names_the_platform("T4SKHUB") && names_the_platform("Ｔａｓｋｈｕｂ"));
    }

    #[test]
    fn emails_are_required_and_must_look_like_addresses() {
        assert_eq!(normalize_email("  "), Err("Email is required"));
        for bad in ["sam", "sam@", "@x.com", "sam@x", "sam @x.com", "sam@x.", "a@b@c.com"] {
            assert_eq!(normalize_email(bad), Err("Email is invalid"), "{bad}");
        }
        assert_eq!(normalize_email(" Sam.Lee@Example.COM "), Ok("sam.lee@example.com".into()));
    }

    #[test]
    fn passwords_need_six_characters() {
        assert_eq!(check_new_password(""), Err("Password is required"));
        assert_eq!(check_new_password("12345"), Err("Password must be at least 6 characters"));
        assert_eq!(check_new_password("123456"), Ok(()));
        assert!(check_new_password(&"x".repeat(257)).is_err());
    }

    #[test]
    fn skills_are_trimmed_bounded_and_unique_ignoring_case() {
        let skill = |name: &str, level| Skill { name: name.into(), level };
        assert_eq!(clean_skills(&[skill(" Plumbing ", 80)]), Ok(vec![skill("Plumbing", 80)]));
        assert!(clean_skills(&[skill("  ", 50)]).is_err());
        assert!(clean_skills(&[skill("Tiling", 0)]).is_err());
        assert!(clean_skills(&[skill("Tiling", 101)]).is_err());
        assert!(clean_skills(&[skill("Tiling", 20), skill("tiling", 30)]).is_err());
    }

    #[test]
    fn optional_text_treats_blank_as_absent() {
        let mut fields = FieldErrors::new();
        assert_eq!(optional_text(&mut fields, "phone", Some("   ")), None);
        assert_eq!(optional_text(&mut fields, "phone", Some(" 0400 ")), Some("0400".into()));
        assert!(fields.is_empty());
        optional_text(&mut fields, "location", Some(&"x".repeat(201)));
        assert!(fields.contains_key("location"));
    }
}
