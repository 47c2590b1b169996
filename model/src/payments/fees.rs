//! The service fee, in integer cents. The poster pays the offer's amount; the
//! fee is deducted from the tasker's payout.
//!
//! Rounding rule: fee = amount × 10 / 100 rounded half up to a whole cent
//! (exact halves go to the platform), payout = amount − fee, so fee + payout
//! always equals the amount charged.

pub const FEE_PERCENT: i64 = 10;

/// The platform's fee on `amount_cents` (non-negative).
pub fn fee_cents(amount_cents: i64) -> i64 {
    (amount_cents * FEE_PERCENT + 50) / 100
}

/// What the tasker receives.
pub fn payout_cents(amount_cents: i64) -> i64 {
    amount_cents - fee_cents(amount_cents)
}

/// `$123.45 AUD`: two decimals and the upper-case currency, as the spec shows amounts.
pub fn display_amount(cents: i64, currency: &str) -> String {
    format!("${}.{:02} {}", cents / 100, cents % 100, currency.to_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_is_ten_percent_rounded_half_up_and_payout_is_the_rest() {
        // (amount, fee, payout)
        let cases = [
            (500, 50, 450),
            (501, 50, 451),       // 50.1 → 50
            (505, 51, 454),       // 50.5 → 51 (half up)
            (999, 100, 899),      // 99.9 → 100
            (1004, 100, 904),     // 100.4 → 100
            (1005, 101, 904),     // 100.5 → 101
            (1234, 123, 1111),    // 123.4 → 123
            (12345, 1235, 11110), // 1234.5 → 1235
            (9999, 1000, 8999),   // 999.9 → 1000
            (15000, 1500, 13500),
            (1, 0, 1),
            (5, 1, 4),
            (0, 0, 0),
        ];
        for (amount, fee, payout) in cases {
            assert_eq!(fee_cents(amount), fee, "fee of {amount}");
            assert_eq!(payout_cents(amount), payout, "payout of {amount}");
        }
    }

    #[test]
    fn amounts_show_two_decimals_and_the_currency() {
        assert_eq!(display_amount(12_345, "aud"), "$123.45 AUD");
        assert_eq!(display_amount(500, "aud"), "$5.00 AUD");
        assert_eq!(display_amount(1_001, "usd"), "$10.01 USD");
    }

    /// The rule computed another way: ten percent is amount ÷ 10, so the whole cents are the
    /// quotient and the last digit decides the rounding (5 and up rounds up).
    fn fee_by_last_digit(amount: i64) -> i64 {
        amount / 10 + i64::from(amount % 10 >= 5)
    }

    #[test]
    fn fee_follows_the_rounding_rule_and_payout_is_the_rest_for_every_amount_up_to_200_dollars() {
        for amount in 0..20_000 {
            assert_eq!(fee_cents(amount), fee_by_last_digit(amount), "fee of {amount}");
            assert_eq!(payout_cents(amount), amount - fee_by_last_digit(amount), "payout of {amount}");
        }
        // Large amounts do not overflow or drift.
        assert_eq!(fee_cents(99_999_995), 10_000_000);
        assert_eq!(fee_cents(99_999_994), 9_999_999);
    }
}
