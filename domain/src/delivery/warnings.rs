//! Push failures are logged with the subscription id and the push service's host only (an
//! endpoint is a capability URL: whoever reads it can push to the device), and at WARN at most
//! once a minute per host, so a push service that is down does not write a line per push.

use std::{
    sync::LazyLock,
    time::{Duration, Instant},
};

use dashmap::DashMap;

const EVERY: Duration = Duration::from_secs(60);
/// Hosts are few (the allow-list); forget them all past this many rather than grow.
const MAX_HOSTS: usize = 1000;

/// Per host: when it was last warned about, and the warnings held back since.
static LAST_WARNED: LazyLock<DashMap<String, (Instant, u64)>> = LazyLock::new(DashMap::new);

/// `Some(held back since the last)` when a warning about `host` may be logged now.
pub fn may_warn(host: &str) -> Option<u64> {
    let now = Instant::now();
    if LAST_WARNED.len() >= MAX_HOSTS {
        LAST_WARNED.clear();
    }
    let mut entry = LAST_WARNED.entry(host.to_owned()).or_insert((now - EVERY, 0));
    let (warned_at, held_back) = *entry;
    if now.duration_since(warned_at) >= EVERY {
        *entry = (now, 0);
        Some(held_back)
    } else {
        entry.1 += 1;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_a_minute_per_host() {
        let host = format!("{}.push.example", uuid::Uuid::now_v7());
        assert_eq!(may_warn(&host), Some(0));
        assert_eq!(may_warn(&host), None);
        assert_eq!(may_warn(&host), None);
        assert_eq!(may_warn(&format!("other.{host}")), Some(0));
    }
}
