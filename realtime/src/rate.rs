//! A token bucket per socket for its subscribe messages: `burst` at once (a reconnecting
//! client re-subscribes everything it watched), then `per_second` on average.

use tokio::time::Instant;

#[derive(Debug)]
pub(crate) struct TokenBucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    refilled: Instant,
}

impl TokenBucket {
    pub fn new(burst: u32, per_second: f64) -> Self {
        let burst = f64::from(burst.max(1));
        Self { tokens: burst, burst, per_second: per_second.max(0.0), refilled: Instant::now() }
    }

    /// Takes one token; false when none is left.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        self.refilled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_then_the_steady_rate() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(3, 2.0);
        assert!((0..3).all(|_| bucket.take_at(start)));
        assert!(!bucket.take_at(start));
        assert!(!bucket.take_at(start + Duration::from_millis(400)));
        assert!(bucket.take_at(start + Duration::from_millis(500)));
        assert!(!bucket.take_at(start + Duration::from_millis(500)));
        // Idle time refills up to the burst, no further.
        let later = start + Duration::from_secs(60);
        assert!((0..3).all(|_| bucket.take_at(later)));
        assert!(!bucket.take_at(later));
    }
}
