//! The contact guard: public and pre-assignment text (task titles and descriptions,
//! questions, answers, offer messages) must not carry a phone number, an email address,
//! a link to a messaging or payment service, or an invitation to pay off the platform.
//! Until a task is assigned nobody has paid, so details that move the job elsewhere take
//! the escrow's protection (and the fee) with them. Private messages after assignment
//! are not checked.

use std::sync::LazyLock;

use phonenumber::country;
use regex::Regex;

use model::refusal::{FieldErrors, Invalid};

/// What the guard found; the caller decides what to tell the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactDetail {
    Phone,
    Email,
    MessagingOrPaymentLink,
    OffPlatformPayment,
}

/// The field message the forms show under a text that carries contact details.
pub const KEEP_IT_ON_TASKHUB: &str = "Please keep contact details and payments on Taskhub until the task is assigned.";

/// Checks every `(field, text)` pair; the refusal names each field that carries contact details.
pub fn keep_on_platform(texts: &[(&str, &str)]) -> Result<(), Invalid> {
    let fields: FieldErrors = texts
        .iter()
        .filter(|(_, text)| find_contact_detail(text).is_some())
        .map(|(field, _)| ((*field).to_owned(), KEEP_IT_ON_TASKHUB.to_owned()))
        .collect();
    Invalid::check(fields)
}

/// The first kind of contact detail in `text`, if any.
pub fn find_contact_detail(text: &str) -> Option<ContactDetail> {
    let lower = text.to_lowercase();
    if EMAIL.is_match(&lower) || DISGUISED_EMAIL.is_match(&lower) {
        return Some(ContactDetail::Email);
    }
    if SERVICE_LINK.is_match(&lower) {
        return Some(ContactDetail::MessagingOrPaymentLink);
    }
    if OFF_PLATFORM_PAYMENT.is_match(&lower) {
        return Some(ContactDetail::OffPlatformPayment);
    }
    contains_phone_number(&lower).then_some(ContactDetail::Phone)
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the guard's patterns are valid")
}

static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"[a-z0-9._%+\-]+\s*@\s*[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}\b"));

/// "jane at gmail dot com", "jane [at] gmail [dot] com", "jane@gmail dot com": a spelled-out
/// "dot" before a common ending is what tells an address from "at the park".
static DISGUISED_EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"[a-z0-9._%+\-]+\s*(?:@|[(\[{]\s*at\s*[)\]}]|\bat\b)\s*[a-z0-9\-]+",
        r"(?:\s*(?:\.|[(\[{]\s*dot\s*[)\]}]|\bdot\b)\s*[a-z0-9\-]+)*",
        r"\s*(?:[(\[{]\s*dot\s*[)\]}]|\bdot\b)\s*(?:com|net|org|au|io|me|co|info|biz|edu|gov)\b",
    ))
});

/// Messaging apps, social inboxes and payment services, by link or by name.
static SERVICE_LINK: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"\b(?:wa\.me|whatsapp|whats\s+app|t\.me/|telegram|viber|wechat|we\s+chat|snapchat|kik\s+me|",
        r"m\.me/|messenger\.com|facebook\.com/|fb\.com/|instagram\.com/|signal\.me|line\.me|",
        r"paypal|pay\s+pal|venmo|cash\.app|cashapp|cash\s+app|zelle|revolut|beem\s*it|payid|pay\s+id|",
        r"wise\.com|skype)",
    ))
});

/// Wording that moves the payment off the platform.
static OFF_PLATFORM_PAYMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"\b(?:",
        r"pay(?:ing|ment)?\s+(?:(?:in|by|with|me)\s+)?(?:cash|crypto|bitcoin|direct(?:ly)?|outside|privately|off\s+(?:the\s+)?(?:app|site|platform))|",
        r"cash\s+(?:only|payment|in\s+hand|job|deal|price|is\s+(?:cheaper|better|easier))|",
        r"(?:for|accept|take|prefer|in|discount\s+for)\s+cash\b|",
        r"bank\s+(?:transfer|deposit|details|account)|direct\s+deposit|transfer\s+(?:it\s+)?to\s+my\s+(?:bank|account)|",
        r"bsb|account\s+number|osko|",
        r"(?:off|outside(?:\s+of)?)\s+(?:of\s+)?(?:taskhub|the\s+app|the\s+platform|the\s+site)|",
        r"avoid\s+(?:the\s+)?(?:fees?|service\s+fee)|skip\s+(?:the\s+)?(?:fees?|service\s+fee)",
        r")",
    ))
});

/// A run of digits with the separators people put in phone numbers (spaces, dots, dashes,
/// brackets), at least eight digits long, optionally after a `+`.
static DIGIT_RUN: LazyLock<Regex> = LazyLock::new(|| regex(r"\+?\(?\d(?:[\s.\-()]{0,3}\d){7,16}"));

static DIGIT_WORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b"));

fn digit_for(word: &str) -> &'static str {
    match word {
        "zero" | "oh" => "0",
        "one" => "1",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        _ => "9",
    }
}

/// Digit runs (with "zero four one two" spelled out turned back into digits), each checked
/// as an Australian number, or an international one when it starts with `+`.
fn contains_phone_number(lower: &str) -> bool {
    let digits_spelled = DIGIT_WORD.replace_all(lower, |word: &regex::Captures| digit_for(&word[0]));
    DIGIT_RUN.find_iter(&digits_spelled).any(|run| is_phone_number(run.as_str()))
}

fn is_phone_number(run: &str) -> bool {
    let digits: String = run.chars().filter(char::is_ascii_digit).collect();
    if !(8..=15).contains(&digits.len()) {
        return false;
    }
    let candidate = if run.starts_with('+') { format!("+{digits}") } else { digits };
    let valid_in = |region| phonenumber::parse(region, &candidate).is_ok_and(|number| number.is_valid());
    valid_in(Some(country::Id::AU)) || (candidate.starts_with('+') && valid_in(None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `domain/tests/fixtures/contact_guard.txt`: `flag: text` or `ok: text`, one a line.
    const CORPUS: &str = include_str!("../../tests/fixtures/contact_guard.txt");

    fn corpus() -> Vec<(bool, &'static str)> {
        CORPUS
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|line| match line.split_once(": ") {
                Some(("flag", text)) => (true, text),
                Some(("ok", text)) => (false, text),
                _ => panic!("corpus line without a label: {line}"),
            })
            .collect()
    }

    #[test]
    fn the_corpus_has_at_least_sixty_examples_of_each_kind() {
        let examples = corpus();
        assert!(examples.iter().filter(|(flag, _)| *flag).count() >= 60);
        assert!(examples.iter().filter(|(flag, _)| !*flag).count() >= 60);
    }

    #[test]
    fn every_flagged_example_is_caught_and_every_clean_one_passes() {
        let wrong: Vec<String> = corpus()
            .into_iter()
            .filter(|(flag, text)| find_contact_detail(text).is_some() != *flag)
            .map(|(flag, text)| {
                format!("{} {text:?} ({:?})", if flag { "missed" } else { "flagged" }, find_contact_detail(text))
            })
            .collect();
        assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn each_field_with_contact_details_is_named() {
        let found = keep_on_platform(&[("title", "Move a couch"), ("description", "text 0412 345 678")]);
        let fields = FieldErrors::from([("description".to_owned(), KEEP_IT_ON_TASKHUB.to_owned())]);
        assert_eq!(found, Err(Invalid { message: KEEP_IT_ON_TASKHUB.into(), fields }));
        assert_eq!(keep_on_platform(&[("title", "Move a couch"), ("description", "Two flights of stairs")]), Ok(()));
    }
}
