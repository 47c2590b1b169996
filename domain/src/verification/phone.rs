//! The rules of phone verification: which numbers, what a code is, how often one may be sent.

use std::time::Duration;

use phonenumber::{Mode, country};
use rand::Rng;
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// How long a code can be used.
pub const CODE_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// A number in E.164 and the region it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phone {
    pub e164: String,
    pub country: String,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PhoneError {
    #[error("Please enter a valid mobile number")]
    Invalid,
    #[error("We can only send codes to numbers in {0}")]
    CountryNotAllowed(String),
}

/// Parses `text` as a number of one of `allowed` regions (national numbers read as the first's).
pub fn parse_phone(text: &str, allowed: &[String]) -> Result<Phone, PhoneError> {
    let default_region = allowed.first().and_then(|code| code.parse::<country::Id>().ok());
    let number = phonenumber::parse(default_region, text.trim()).map_err(|_| PhoneError::Invalid)?;
    if !number.is_valid() {
        return Err(PhoneError::Invalid);
    }
    // Codes go to a phone in a pocket: a landline, a 13/1300 or 1800 line, or a premium 1900 number
    // cannot read them, and a premium one bills the platform for every code sent.
    if !matches!(
        number.number_type(&phonenumber::metadata::DATABASE),
        phonenumber::Type::Mobile | phonenumber::Type::FixedLineOrMobile
    ) {
        return Err(PhoneError::Invalid);
    }
    let region = number.country().id().map(|id| id.as_ref().to_owned()).ok_or(PhoneError::Invalid)?;
    if !allowed.iter().any(|code| code.eq_ignore_ascii_case(&region)) {
        return Err(PhoneError::CountryNotAllowed(allowed.join(", ")));
    }
    Ok(Phone { e164: number.format().mode(Mode::E164).to_string(), country: region })
}

/// Six random digits.
pub fn new_code() -> String {
    format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000))
}

/// What is stored instead of the code: bound to its row, so equal codes hash differently.
pub fn hash_code(code_id: Uuid, code: &str) -> String {
    hex::encode(Sha256::digest(format!("{code_id}:{}", code.trim())))
}

pub fn text_for(code: &str) -> String {
    format!("{code} is your Taskhub verification code. It expires in 10 minutes. Never share it.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn au() -> Vec<String> {
        vec!["AU".into()]
    }

    #[test]
    fn australian_numbers_are_stored_in_e164() {
        let phone = parse_phone("0412 345 678", &au()).unwrap();
        assert_eq!(phone, Phone { e164: "+61412345678".into(), country: "AU".into() });
        assert_eq!(parse_phone("+61 412 345 678", &au()).unwrap().e164, "+61412345678");
    }

    #[test]
    fn only_mobile_numbers_are_taken() {
        for not_mobile in ["02 9374 4000", "(03) 9650 1234", "13 22 21", "1300 123 456", "1800 123 456", "1900 123 456"]
        {
            assert_eq!(parse_phone(not_mobile, &au()), Err(PhoneError::Invalid), "{not_mobile}");
        }
        assert!(parse_phone("0412 345 678", &au()).is_ok());
    }

    #[test]
    fn foreign_and_malformed_numbers_are_refused() {
        assert_eq!(parse_phone("+1 415 555 2671", &au()), Err(PhoneError::CountryNotAllowed("AU".into())));
        assert_eq!(parse_phone("+64 21 123 4567", &au()), Err(PhoneError::CountryNotAllowed("AU".into())));
        assert_eq!(parse_phone("12", &au()), Err(PhoneError::Invalid));
        assert_eq!(parse_phone("call me", &au()), Err(PhoneError::Invalid));
        let both = vec!["AU".to_owned(), "NZ".to_owned()];
        assert_eq!(parse_phone("+64 21 123 4567", &both).unwrap().country, "NZ");
    }

    #[test]
    fn codes_are_six_digits_and_hashed_per_row() {
        let code = new_code();
        assert_eq!(code.len(), 6);
        assert!(code.chars().all(|c| c.is_ascii_digit()));
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        assert_ne!(hash_code(a, "123456"), hash_code(b, "123456"));
        assert_eq!(hash_code(a, " 123456 "), hash_code(a, "123456"));
        assert!(!hash_code(a, "123456").contains("123456"));
    }
}
