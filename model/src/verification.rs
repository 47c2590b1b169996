//! How often a phone code may be sent and guessed (the rest of phone verification, which
//! numbers and what a code is, is the server's `verification::phone`).

/// Wrong guesses a code survives; the next try is refused (429) and a new code is needed.
pub const MAX_ATTEMPTS: i32 = 5;

/// Sends already made within each window, for the account, the number and its country.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SendCounts {
    pub account_minute: i64,
    pub account_hour: i64,
    pub account_day: i64,
    pub phone_minute: i64,
    pub phone_hour: i64,
    pub phone_day: i64,
    pub country_day: i64,
}

pub const PER_MINUTE: i64 = 1;
pub const PER_HOUR: i64 = 5;
pub const PER_DAY: i64 = 10;

/// Seconds to wait before another code may be sent, or `None` when one may be sent now. The
/// same limits apply to the account and to the number, so neither many numbers from one
/// account nor many accounts at one number can pump texts; the country's ceiling caps the rest.
pub fn retry_after(counts: &SendCounts, country_daily_limit: u32) -> Option<u64> {
    const MINUTE: u64 = 60;
    const HOUR: u64 = 3600;
    const DAY: u64 = 24 * 3600;
    [
        (counts.account_minute.max(counts.phone_minute) >= PER_MINUTE, MINUTE),
        (counts.account_hour.max(counts.phone_hour) >= PER_HOUR, HOUR),
        (counts.account_day.max(counts.phone_day) >= PER_DAY, DAY),
        (counts.country_day >= i64::from(country_daily_limit), DAY),
    ]
    .into_iter()
    .filter(|(reached, _)| *reached)
    .map(|(_, window)| window)
    .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_window_limits_the_account_and_the_number() {
        let none = SendCounts::default();
        assert_eq!(retry_after(&none, 100), None);
        assert_eq!(retry_after(&SendCounts { account_minute: 1, ..none }, 100), Some(60));
        assert_eq!(retry_after(&SendCounts { phone_minute: 1, ..none }, 100), Some(60));
        assert_eq!(retry_after(&SendCounts { account_hour: 5, ..none }, 100), Some(3600));
        assert_eq!(retry_after(&SendCounts { phone_hour: 4, account_hour: 4, ..none }, 100), None);
        assert_eq!(retry_after(&SendCounts { phone_day: 10, ..none }, 100), Some(86400));
        assert_eq!(retry_after(&SendCounts { country_day: 100, ..none }, 100), Some(86400));
        assert_eq!(retry_after(&SendCounts { country_day: 99, ..none }, 100), None);
    }
}
