//! Fixed-window counters in this process (the default, and the fallback when Redis is down).

use std::time::{Duration, Instant};

use dashmap::DashMap;

use crate::rate_limit::{Limit, Verdict};

#[derive(Default)]
pub struct LocalWindows {
    windows: DashMap<String, Window>,
}

struct Window {
    ends: Instant,
    hits: u32,
}

impl LocalWindows {
    pub fn hit(&self, key: &str, limit: Limit) -> Verdict {
        let now = Instant::now();
        let mut window = self.windows.entry(key.to_owned()).or_insert(Window { ends: now + limit.window, hits: 0 });
        if window.ends <= now {
            *window = Window { ends: now + limit.window, hits: 0 };
        }
        window.hits = window.hits.saturating_add(1);
        if window.hits <= limit.max {
            Verdict::Allowed
        } else {
            Verdict::Exceeded { retry_after: window.ends.saturating_duration_since(now).max(Duration::from_secs(1)) }
        }
    }

    pub fn forget_ended(&self) {
        let now = Instant::now();
        self.windows.retain(|_, window| window.ends > now);
        self.windows.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_allows_its_maximum_then_refuses_until_it_ends() {
        let windows = LocalWindows::default();
        let limit = Limit::new(2, Duration::from_millis(50));
        assert_eq!(windows.hit("k", limit), Verdict::Allowed);
        assert_eq!(windows.hit("k", limit), Verdict::Allowed);
        assert!(matches!(windows.hit("k", limit), Verdict::Exceeded { .. }));
        assert_eq!(windows.hit("other", limit), Verdict::Allowed);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(windows.hit("k", limit), Verdict::Allowed);
        windows.forget_ended();
    }
}
