//! What the soak measures: every REST call and every live event received, stamped with the
//! time since the start, and the fault windows, so figures can be split into "inside" and
//! "outside" a fault.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// A 4xx the scenario can expect (e.g. 409: the task was taken meanwhile).
    Refused,
    /// A 5xx, a 429, a timeout or a broken connection.
    Failed,
}

pub struct Fault {
    pub name: &'static str,
    pub started: Duration,
    /// When the component was back (restarted, reloaded).
    pub restored: Duration,
    /// When every probe succeeded again after `restored`.
    pub recovered: Option<Duration>,
}

impl Fault {
    /// The window counted as "inside the fault": from the fault until recovery (or a generous
    /// end when it never recovered).
    pub fn window(&self) -> (Duration, Duration) {
        (self.started, self.recovered.unwrap_or(self.restored + Duration::from_secs(60)))
    }
}

pub struct Metrics {
    pub start: Instant,
    /// (when it was sent, latency ms, outcome, HTTP status or 0 when none came back)
    rest: Mutex<Vec<(Duration, f64, Outcome, u16)>>,
    /// (when it was published, latency ms)
    events: Mutex<Vec<(Duration, f64)>>,
    faults: Mutex<Vec<Fault>>,
}

impl Metrics {
    pub fn new() -> Self {
        Self { start: Instant::now(), rest: Mutex::default(), events: Mutex::default(), faults: Mutex::default() }
    }

    pub fn now(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn rest(&self, at: Duration, latency: Duration, outcome: Outcome, status: u16) {
        self.rest.lock().unwrap().push((at, latency.as_secs_f64() * 1000.0, outcome, status));
    }

    /// An event received live `latency_ms` after it was published.
    pub fn event(&self, latency_ms: f64) {
        let published = self.now().saturating_sub(Duration::from_secs_f64(latency_ms.max(0.0) / 1000.0));
        self.events.lock().unwrap().push((published, latency_ms));
    }

    pub fn fault(&self, fault: Fault) {
        self.faults.lock().unwrap().push(fault);
    }

    pub fn report(&self, duration: Duration) -> Report {
        let faults = self.faults.lock().unwrap();
        // A call counts as inside a fault window when any part of it is (sent before, answered during).
        let overlaps = |at: Duration, ms: f64, (from, to): (Duration, Duration)| {
            at <= to && at + Duration::from_secs_f64(ms.max(0.0) / 1000.0) >= from
        };
        let inside = |at: Duration, ms: f64| faults.iter().any(|f| overlaps(at, ms, f.window()));
        let rest = self.rest.lock().unwrap();
        let events = self.events.lock().unwrap();
        let mut rest_outside: Vec<f64> =
            rest.iter().filter(|(at, ms, o, _)| *o == Outcome::Ok && !inside(*at, *ms)).map(|r| r.1).collect();
        let mut events_outside: Vec<f64> =
            events.iter().filter(|(at, ms)| !inside(*at, ms.max(0.0))).map(|e| e.1).collect();
        let failed_outside: Vec<u16> =
            rest.iter().filter(|(at, ms, o, _)| *o == Outcome::Failed && !inside(*at, *ms)).map(|r| r.3).collect();
        let fault_lines = faults
            .iter()
            .map(|f| {
                let in_window = |(at, ms, ..): &&(Duration, f64, Outcome, u16)| overlaps(*at, *ms, f.window());
                let requests = rest.iter().filter(in_window).count();
                let failed: Vec<u16> =
                    rest.iter().filter(in_window).filter(|r| r.2 == Outcome::Failed).map(|r| r.3).collect();
                FaultLine {
                    name: f.name,
                    at_s: f.started.as_secs_f64(),
                    recovery_s: f.recovered.map(|r| r.saturating_sub(f.restored).as_secs_f64()),
                    requests,
                    failed: failures(&failed),
                }
            })
            .collect();
        Report {
            requests: rest.len(),
            requests_per_s: rest.len() as f64 / duration.as_secs_f64().max(1.0),
            refused: rest.iter().filter(|r| r.2 == Outcome::Refused).count(),
            failed_outside: failures(&failed_outside),
            rest_p50: percentile(&mut rest_outside, 50.0),
            rest_p99: percentile(&mut rest_outside, 99.0),
            events: events.len(),
            event_p50: percentile(&mut events_outside, 50.0),
            event_p99: percentile(&mut events_outside, 99.0),
            faults: fault_lines,
        }
    }
}

pub struct FaultLine {
    pub name: &'static str,
    pub at_s: f64,
    pub recovery_s: Option<f64>,
    pub requests: usize,
    pub failed: String,
}

pub struct Report {
    pub requests: usize,
    pub requests_per_s: f64,
    pub refused: usize,
    pub failed_outside: String,
    pub rest_p50: f64,
    pub rest_p99: f64,
    pub events: usize,
    pub event_p50: f64,
    pub event_p99: f64,
    pub faults: Vec<FaultLine>,
}

impl Report {
    pub fn print(&self) {
        println!(
            "requests: {} ({:.1}/s), refused (4xx the scenario expects): {}, failed outside fault windows: {}",
            self.requests, self.requests_per_s, self.refused, self.failed_outside
        );
        println!("REST latency outside fault windows: p50 {:.1} ms, p99 {:.1} ms", self.rest_p50, self.rest_p99);
        println!(
            "events received live: {}; publish→receive outside fault windows: p50 {:.1} ms, p99 {:.1} ms",
            self.events, self.event_p50, self.event_p99
        );
        for fault in &self.faults {
            let recovery = fault.recovery_s.map_or("never".to_owned(), |s| format!("{s:.1} s"));
            println!(
                "fault {:<16} at {:>5.1} s: {} requests in its window, {} failed; recovered {} after it was restored",
                fault.name, fault.at_s, fault.requests, fault.failed, recovery
            );
        }
    }
}

/// "0", or e.g. "7 (503 ×5, no answer ×2)".
fn failures(statuses: &[u16]) -> String {
    if statuses.is_empty() {
        return "0".into();
    }
    let mut by_status = std::collections::BTreeMap::new();
    for status in statuses {
        *by_status.entry(*status).or_insert(0) += 1;
    }
    let parts: Vec<String> = by_status
        .iter()
        .map(|(status, n)| match status {
            0 => format!("no answer ×{n}"),
            _ => format!("{status} ×{n}"),
        })
        .collect();
    format!("{} ({})", statuses.len(), parts.join(", "))
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * (values.len() - 1) as f64).round() as usize;
    values[rank.min(values.len() - 1)]
}
