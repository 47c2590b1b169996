//! Deliveries counted by a client worker: how many, when, and a latency histogram.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use ws_load::now_ns;

/// Latency histogram: 10 µs buckets up to 1 s (the last bucket holds everything slower).
pub const BUCKET_NS: u64 = 10_000;
pub const BUCKETS: usize = 100_000;

pub struct Tally {
    pub received: AtomicU64,
    pub first_publish_ns: AtomicU64,
    pub last_receive_ns: AtomicU64,
    pub latency: Vec<AtomicU64>,
}

impl Tally {
    pub fn new() -> Self {
        Self {
            received: AtomicU64::new(0),
            first_publish_ns: AtomicU64::new(u64::MAX),
            last_receive_ns: AtomicU64::new(0),
            latency: (0..=BUCKETS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Counts an event frame whose `data.t` is its publish time.
    pub fn record(&self, text: &str) {
        let now = now_ns();
        let Some(t) = text
            .split_once(r#""t":"#)
            .and_then(|(_, rest)| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|digits| digits.parse::<u64>().ok())
        else {
            return;
        };
        let bucket = (now.saturating_sub(t) / BUCKET_NS).min(BUCKETS as u64) as usize;
        self.latency[bucket].fetch_add(1, Relaxed);
        self.first_publish_ns.fetch_min(t, Relaxed);
        self.last_receive_ns.fetch_max(now, Relaxed);
        self.received.fetch_add(1, Relaxed);
    }

    pub fn reset(&self) {
        self.received.store(0, Relaxed);
        self.first_publish_ns.store(u64::MAX, Relaxed);
        self.last_receive_ns.store(0, Relaxed);
        self.latency.iter().for_each(|b| b.store(0, Relaxed));
    }

    /// `received first_ns last_ns bucket:count,…` (non-empty buckets only).
    pub fn report(&self) -> String {
        let buckets: Vec<String> = self
            .latency
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some(b.load(Relaxed)).filter(|&n| n > 0).map(|n| format!("{i}:{n}")))
            .collect();
        format!(
            "{} {} {} {}",
            self.received.load(Relaxed),
            self.first_publish_ns.load(Relaxed),
            self.last_receive_ns.load(Relaxed),
            if buckets.is_empty() { "-".to_owned() } else { buckets.join(",") }
        )
    }

    /// Adds a worker's `report()` into this tally.
    pub fn merge(&self, report: &str) -> anyhow::Result<()> {
        let mut parts = report.split_whitespace();
        let mut next = || parts.next().ok_or_else(|| anyhow::anyhow!("short report"));
        self.received.fetch_add(next()?.parse()?, Relaxed);
        self.first_publish_ns.fetch_min(next()?.parse()?, Relaxed);
        self.last_receive_ns.fetch_max(next()?.parse()?, Relaxed);
        for pair in next()?.split(',').filter(|p| *p != "-") {
            let (i, n) = pair.split_once(':').ok_or_else(|| anyhow::anyhow!("bad bucket"))?;
            self.latency[i.parse::<usize>()?].fetch_add(n.parse()?, Relaxed);
        }
        Ok(())
    }

    pub fn percentile_ms(&self, p: f64) -> f64 {
        let total: u64 = self.latency.iter().map(|b| b.load(Relaxed)).sum();
        let target = (((total as f64) * p).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, bucket) in self.latency.iter().enumerate() {
            seen += bucket.load(Relaxed);
            if seen >= target {
                return ((i as u64 + 1) * BUCKET_NS) as f64 / 1e6;
            }
        }
        f64::NAN
    }
}
