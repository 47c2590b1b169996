//! What the soak measures: every REST call and every live event received, stamped with the
//! time since the start, and the fault windows, so figures can be split into "inside" and
//! "outside" a fault.

use std::{
    collections::{BTreeMap, HashMap},
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

/// One REST call.
struct Call {
    /// When it was sent.
    at: Duration,
    latency_ms: f64,
    outcome: Outcome,
    /// The HTTP status, or 0 when none came back.
    status: u16,
    /// Method and path with ids and the query left out, e.g. `POST /api/tasks/{id}/offers`.
    route: String,
}

pub struct Metrics {
    pub start: Instant,
    /// The start as Unix milliseconds, to place database timestamps in the run.
    pub start_epoch_ms: i64,
    rest: Mutex<Vec<Call>>,
    /// (when it was published, latency ms)
    events: Mutex<Vec<(Duration, f64)>>,
    faults: Mutex<Vec<Fault>>,
    /// Per signed-in user: what their socket saw of their own topic (connections, `subscribed`,
    /// each event's seq, what it dropped), for the audit to show around a lost notification.
    user_topic_log: Mutex<HashMap<String, Vec<(Duration, String)>>>,
}

impl Metrics {
    pub fn new() -> Self {
        let start_epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis() as i64);
        Self {
            start: Instant::now(),
            start_epoch_ms,
            rest: Mutex::default(),
            events: Mutex::default(),
            faults: Mutex::default(),
            user_topic_log: Mutex::default(),
        }
    }

    /// Notes what `user`'s socket saw of their own topic.
    pub fn user_topic_saw(&self, user: &str, what: String) {
        let at = self.now();
        self.user_topic_log.lock().unwrap().entry(user.to_owned()).or_default().push((at, what));
    }

    /// What `user`'s socket saw of their own topic between `from` and `to` seconds into the run.
    pub fn user_topic_log(&self, user: &str, from: f64, to: f64) -> Vec<String> {
        let log = self.user_topic_log.lock().unwrap();
        log.get(user)
            .into_iter()
            .flatten()
            .filter(|(at, _)| (from..=to).contains(&at.as_secs_f64()))
            .map(|(at, what)| format!("[{:>5.1} s] {what}", at.as_secs_f64()))
            .collect()
    }

    pub fn now(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn rest(&self, at: Duration, latency: Duration, outcome: Outcome, status: u16, method: &str, path: &str) {
        let call = Call { at, latency_ms: latency.as_secs_f64() * 1000.0, outcome, status, route: route(method, path) };
        self.rest.lock().unwrap().push(call);
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
        let mut rest_outside: Vec<f64> = rest
            .iter()
            .filter(|c| c.outcome == Outcome::Ok && !inside(c.at, c.latency_ms))
            .map(|c| c.latency_ms)
            .collect();
        let mut events_outside: Vec<f64> =
            events.iter().filter(|(at, ms)| !inside(*at, ms.max(0.0))).map(|e| e.1).collect();
        let mut by_route: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for call in rest.iter().filter(|c| c.outcome == Outcome::Ok && !inside(c.at, c.latency_ms)) {
            by_route.entry(&call.route).or_default().push(call.latency_ms);
        }
        let mut rest_by_route: Vec<RouteLine> = by_route
            .into_iter()
            .map(|(route, mut latencies)| RouteLine {
                route: route.to_owned(),
                requests: latencies.len(),
                p50: percentile(&mut latencies, 50.0),
                p99: percentile(&mut latencies, 99.0),
            })
            .collect();
        rest_by_route.sort_by_key(|line| std::cmp::Reverse(line.requests));
        let failed_outside: Vec<&Call> =
            rest.iter().filter(|c| c.outcome == Outcome::Failed && !inside(c.at, c.latency_ms)).collect();
        let fault_lines = faults
            .iter()
            .map(|f| {
                let in_window = |c: &&Call| overlaps(c.at, c.latency_ms, f.window());
                let requests = rest.iter().filter(in_window).count();
                let failed: Vec<&Call> =
                    rest.iter().filter(in_window).filter(|c| c.outcome == Outcome::Failed).collect();
                let (while_down, while_recovering): (Vec<&Call>, Vec<&Call>) =
                    failed.iter().partition(|c| c.at < f.restored);
                // Any HTTP status is an answer (a 503 the client can act on); 0 is none.
                let mut answers: Vec<f64> =
                    rest.iter().filter(in_window).filter(|c| c.status != 0).map(|c| c.latency_ms).collect();
                FaultLine {
                    name: f.name,
                    at_s: f.started.as_secs_f64(),
                    recovery_s: f.recovered.map(|r| r.saturating_sub(f.restored).as_secs_f64()),
                    requests,
                    failed: failed.len(),
                    failed_while_down: failures(&while_down),
                    failed_while_recovering: failures(&while_recovering),
                    unanswered: requests - answers.len(),
                    answer_p50: percentile(&mut answers, 50.0),
                    answer_p99: percentile(&mut answers, 99.0),
                    answer_max: answers.last().copied().unwrap_or(0.0),
                }
            })
            .collect();
        // Where the slow calls sit in the run: every successful call per slice of the run, with
        // the slices a fault window touches marked.
        let slice = (duration / 20).max(Duration::from_secs(1));
        let mut slices: BTreeMap<u32, Vec<&Call>> = BTreeMap::new();
        for call in rest.iter().filter(|c| c.outcome == Outcome::Ok) {
            slices.entry((call.at.as_secs_f64() / slice.as_secs_f64()) as u32).or_default().push(call);
        }
        let timeline = slices
            .into_iter()
            .map(|(n, calls)| {
                let (from, to) = (slice * n, slice * (n + 1));
                let mut latencies: Vec<f64> = calls.iter().map(|c| c.latency_ms).collect();
                let mut slow: BTreeMap<&str, usize> = BTreeMap::new();
                for call in calls.iter().filter(|c| c.latency_ms > SLOW_MS) {
                    *slow.entry(&call.route).or_default() += 1;
                }
                let mut slow: Vec<(&str, usize)> = slow.into_iter().collect();
                slow.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
                let slowest =
                    slow.iter().take(3).map(|(route, n)| format!("{route} ×{n}")).collect::<Vec<_>>().join(", ");
                SliceLine {
                    slowest,
                    from_s: from.as_secs_f64(),
                    to_s: to.as_secs_f64(),
                    in_fault: faults.iter().any(|f| f.window().0 < to && f.window().1 > from),
                    requests: latencies.len(),
                    p50: percentile(&mut latencies, 50.0),
                    p99: percentile(&mut latencies, 99.0),
                }
            })
            .collect();
        Report {
            timeline,
            requests: rest.len(),
            requests_per_s: rest.len() as f64 / duration.as_secs_f64().max(1.0),
            refused: rest.iter().filter(|c| c.outcome == Outcome::Refused).count(),
            failed_outside: failures(&failed_outside),
            rest_p50: percentile(&mut rest_outside, 50.0),
            rest_p99: percentile(&mut rest_outside, 99.0),
            rest_by_route,
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
    pub failed: usize,
    /// Sent before the component was back.
    pub failed_while_down: String,
    /// Sent once it was back, before every probe succeeded again.
    pub failed_while_recovering: String,
    /// Requests in the window that got no HTTP answer (timeout, broken connection).
    pub unanswered: usize,
    /// Answer times (ms) of the requests in the window that got one, whatever its status.
    pub answer_p50: f64,
    pub answer_p99: f64,
    pub answer_max: f64,
}

/// The client's latency of one route outside fault windows (successful calls).
pub struct RouteLine {
    pub route: String,
    pub requests: usize,
    pub p50: f64,
    pub p99: f64,
}

/// A call slower than this is named in its slice of the timeline (the client-side target).
const SLOW_MS: f64 = 300.0;

/// The client's latency in one slice of the run (successful calls, inside windows or not).
pub struct SliceLine {
    /// The routes with the most calls slower than `SLOW_MS`, e.g. `GET /api/tasks ×12`.
    pub slowest: String,
    pub from_s: f64,
    pub to_s: f64,
    pub in_fault: bool,
    pub requests: usize,
    pub p50: f64,
    pub p99: f64,
}

/// Routes listed per run, busiest first (as `server_times` does).
const ROUTES_SHOWN: usize = 12;

pub struct Report {
    pub timeline: Vec<SliceLine>,
    pub requests: usize,
    pub requests_per_s: f64,
    pub refused: usize,
    pub failed_outside: String,
    pub rest_p50: f64,
    pub rest_p99: f64,
    pub rest_by_route: Vec<RouteLine>,
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
        for line in self.rest_by_route.iter().take(ROUTES_SHOWN) {
            println!(
                "  {:<52} {:>5} requests, p50 {:>7.1} ms, p99 {:>7.1} ms",
                line.route, line.requests, line.p50, line.p99
            );
        }
        println!("REST latency through the run (* a fault window touches the slice):");
        for line in &self.timeline {
            println!(
                "  {:>5.0}–{:<5.0} s{} {:>5} requests, p50 {:>7.1} ms, p99 {:>7.1} ms",
                line.from_s,
                line.to_s,
                if line.in_fault { "*" } else { " " },
                line.requests,
                line.p50,
                line.p99
            );
            if !line.slowest.is_empty() {
                println!("      over {SLOW_MS:.0} ms: {}", line.slowest);
            }
        }
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
            println!(
                "  answer times in its window: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; without an answer: {}",
                fault.answer_p50, fault.answer_p99, fault.answer_max, fault.unanswered
            );
            if fault.failed > 0 {
                println!("  failed while down: {}", fault.failed_while_down);
                println!("  failed while recovering: {}", fault.failed_while_recovering);
            }
        }
    }
}

/// "0", or e.g. "7 (503 ×5, no answer ×2)" followed by one indented line per route, most
/// failures first: "    POST /api/tasks/{id}/offers: 503 ×5".
fn failures(calls: &[&Call]) -> String {
    if calls.is_empty() {
        return "0".into();
    }
    let mut by_route: BTreeMap<&str, BTreeMap<u16, usize>> = BTreeMap::new();
    for call in calls {
        *by_route.entry(&call.route).or_default().entry(call.status).or_default() += 1;
    }
    let mut by_status = BTreeMap::new();
    for call in calls {
        *by_status.entry(call.status).or_insert(0) += 1;
    }
    let mut routes: Vec<(&str, BTreeMap<u16, usize>)> = by_route.into_iter().collect();
    routes.sort_by_key(|(_, statuses)| std::cmp::Reverse(statuses.values().sum::<usize>()));
    let mut text = format!("{} ({})", calls.len(), status_counts(&by_status));
    for (route, statuses) in routes {
        text.push_str(&format!("\n    {route}: {}", status_counts(&statuses)));
    }
    text
}

fn status_counts(by_status: &BTreeMap<u16, usize>) -> String {
    let parts: Vec<String> = by_status
        .iter()
        .map(|(status, n)| match status {
            0 => format!("no answer ×{n}"),
            _ => format!("{status} ×{n}"),
        })
        .collect();
    parts.join(", ")
}

/// `GET /api/tasks/0199…/offers?x=1` → `GET /api/tasks/{id}/offers`.
fn route(method: &str, path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    let segments: Vec<&str> =
        path.split('/').map(|segment| if uuid::Uuid::parse_str(segment).is_ok() { "{id}" } else { segment }).collect();
    format!("{method} {}", segments.join("/"))
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * (values.len() - 1) as f64).round() as usize;
    values[rank.min(values.len() - 1)]
}
