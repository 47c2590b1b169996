//! The server's own view of the run: each node's request-duration histogram
//! (`http_request_duration_seconds` on `/metrics`, per route template), summed over the nodes, so
//! a run tells whether a slow p99 is the server's or the machine's (the soak's clients share the
//! cores).
//!
//! The histograms are cumulative, so they are read at every edge of a fault window (just before
//! the fault, when every probe is healthy again) and at the start and end of the run: what a node
//! counted between a window's end and the next one's start is its time outside fault windows, as
//! the client's figures are. A node killed by a fault starts counting again from zero, which only
//! ever happens inside a window.

use std::{collections::BTreeMap, sync::Mutex, time::Duration};

/// Cumulative counts per upper bound (seconds), as Prometheus renders a histogram.
#[derive(Default, Clone)]
struct Histogram {
    buckets: BTreeMap<u64, f64>,
    count: f64,
}

/// Bucket bounds as integer microseconds, so they order and merge exactly.
fn micros(seconds: f64) -> u64 {
    (seconds * 1_000_000.0).round() as u64
}

impl Histogram {
    /// The `p`th percentile in milliseconds, interpolated inside its bucket.
    fn percentile_ms(&self, p: f64) -> Option<f64> {
        if self.count == 0.0 {
            return None;
        }
        let rank = self.count * p / 100.0;
        let (mut lower_bound, mut lower_count) = (0u64, 0.0);
        for (&bound, &cumulative) in &self.buckets {
            if cumulative >= rank {
                let within =
                    if cumulative > lower_count { (rank - lower_count) / (cumulative - lower_count) } else { 1.0 };
                let ms = (lower_bound as f64 + within * (bound - lower_bound) as f64) / 1000.0;
                return Some(ms);
            }
            (lower_bound, lower_count) = (bound, cumulative);
        }
        // Beyond the last finite bound: all we can say is "more than it".
        Some(lower_bound as f64 / 1000.0)
    }

    fn add(&mut self, other: &Histogram) {
        for (bound, count) in &other.buckets {
            *self.buckets.entry(*bound).or_default() += count;
        }
        self.count += other.count;
    }

    /// What was counted since `earlier`, or None when a count went down (the node restarted).
    fn since(&self, earlier: &Histogram) -> Option<Histogram> {
        let mut delta = Histogram { count: self.count - earlier.count, ..Histogram::default() };
        for (bound, count) in &self.buckets {
            delta.buckets.insert(*bound, count - earlier.buckets.get(bound).copied().unwrap_or(0.0));
        }
        let went_down = delta.count < 0.0
            || delta.buckets.values().any(|count| *count < 0.0)
            || earlier.buckets.keys().any(|bound| !self.buckets.contains_key(bound));
        (!went_down).then_some(delta)
    }
}

type Routes = BTreeMap<String, Histogram>;

/// Every route's counts since the earlier reading of the same node, or None when it restarted.
fn routes_since(later: &Routes, earlier: &Routes) -> Option<Routes> {
    if earlier.keys().any(|route| !later.contains_key(route)) {
        return None;
    }
    let empty = Histogram::default();
    later
        .iter()
        .map(|(route, histogram)| Some((route.clone(), histogram.since(earlier.get(route).unwrap_or(&empty))?)))
        .collect()
}

/// `name{a="x",b="y"} value` → (name, labels, value).
fn parse_line(line: &str) -> Option<(&str, BTreeMap<&str, &str>, f64)> {
    let (series, value) = line.rsplit_once(' ')?;
    let value: f64 = value.parse().ok()?;
    let (name, labels) = match series.split_once('{') {
        Some((name, rest)) => (name, rest.strip_suffix('}')?),
        None => (series, ""),
    };
    let labels = labels
        .split("\",")
        .filter_map(|pair| {
            let (key, value) = pair.split_once("=\"")?;
            Some((key.trim_start_matches(','), value.trim_end_matches('"')))
        })
        .collect();
    Some((name, labels, value))
}

/// Per `METHOD /route`, every status together (a 503 is time the client waited too).
fn histograms(text: &str) -> BTreeMap<String, Histogram> {
    let mut by_route: BTreeMap<String, Histogram> = BTreeMap::new();
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let Some((name, labels, value)) = parse_line(line) else { continue };
        let (Some(method), Some(route)) = (labels.get("method"), labels.get("route")) else { continue };
        let histogram = by_route.entry(format!("{method} {route}")).or_default();
        match name {
            "http_request_duration_seconds_bucket" => match labels.get("le").map(|le| le.parse::<f64>()) {
                Some(Ok(bound)) if bound.is_finite() => *histogram.buckets.entry(micros(bound)).or_default() += value,
                _ => {}
            },
            "http_request_duration_seconds_count" => histogram.count += value,
            _ => {}
        }
    }
    by_route
}

/// Whether a reading opens a stretch outside fault windows (the run's start, a fault's recovery)
/// or closes one (a fault's start, the run's end).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Opens,
    Closes,
}

struct Reading {
    edge: Edge,
    /// Per node, in the order of `nodes`; None when the node did not answer.
    nodes: Vec<Option<Routes>>,
}

/// The nodes' histograms read at the edges of the fault windows.
pub struct ServerTimes {
    client: reqwest::Client,
    nodes: Vec<String>,
    readings: Mutex<Vec<Reading>>,
}

impl ServerTimes {
    pub fn new(nodes: Vec<String>) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(2)).build()?;
        Ok(Self { client, nodes, readings: Mutex::default() })
    }

    async fn read(&self, node: &str) -> Option<Routes> {
        let response = self.client.get(format!("{node}/metrics")).send().await.ok()?;
        Some(histograms(&response.text().await.ok()?))
    }

    /// Reads every node now.
    pub async fn mark(&self, edge: Edge) {
        let mut nodes = Vec::new();
        for node in &self.nodes {
            nodes.push(self.read(node).await);
        }
        self.readings.lock().unwrap().push(Reading { edge, nodes });
    }

    /// What every node counted between each opening reading and the closing one after it.
    fn outside_fault_windows(&self) -> (Routes, usize) {
        let readings = self.readings.lock().unwrap();
        let mut total: Routes = BTreeMap::new();
        let mut left_out = 0;
        for pair in readings.windows(2) {
            let [open, close] = pair else { continue };
            if open.edge != Edge::Opens || close.edge != Edge::Closes {
                continue;
            }
            for (earlier, later) in open.nodes.iter().zip(&close.nodes) {
                match (earlier, later) {
                    (Some(earlier), Some(later)) => match routes_since(later, earlier) {
                        Some(routes) => {
                            for (route, histogram) in routes {
                                total.entry(route).or_default().add(&histogram);
                            }
                        }
                        None => left_out += 1,
                    },
                    _ => left_out += 1,
                }
            }
        }
        (total, left_out)
    }

    /// Prints the server-side p50/p99 outside fault windows, overall and for the busiest routes.
    pub fn print(&self) {
        let (routes, left_out) = self.outside_fault_windows();
        let mut total = Histogram::default();
        for histogram in routes.values() {
            total.add(histogram);
        }
        let ms = |value: Option<f64>| value.map_or("-".to_owned(), |ms| format!("{ms:.1} ms"));
        println!(
            "server-side REST outside fault windows (every node): {} requests, p50 {}, p99 {}",
            total.count,
            ms(total.percentile_ms(50.0)),
            ms(total.percentile_ms(99.0))
        );
        if left_out > 0 {
            println!("  ({left_out} node stretches left out: the node did not answer, or restarted outside a window)");
        }
        let mut busiest: Vec<(&String, &Histogram)> = routes.iter().filter(|(_, h)| h.count > 0.0).collect();
        busiest.sort_by(|a, b| b.1.count.total_cmp(&a.1.count));
        for (route, histogram) in busiest.into_iter().take(12) {
            println!(
                "  {route:<48} {:>8} requests, p50 {:>9}, p99 {:>9}",
                histogram.count,
                ms(histogram.percentile_ms(50.0)),
                ms(histogram.percentile_ms(99.0))
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RENDERED: &str = r#"# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{method="GET",route="/api/tasks",status="200",le="0.001"} 0
http_request_duration_seconds_bucket{method="GET",route="/api/tasks",status="200",le="0.005"} 50
http_request_duration_seconds_bucket{method="GET",route="/api/tasks",status="200",le="0.01"} 90
http_request_duration_seconds_bucket{method="GET",route="/api/tasks",status="200",le="0.1"} 100
http_request_duration_seconds_bucket{method="GET",route="/api/tasks",status="200",le="+Inf"} 100
http_request_duration_seconds_sum{method="GET",route="/api/tasks",status="200"} 0.6
http_request_duration_seconds_count{method="GET",route="/api/tasks",status="200"} 100
"#;

    #[test]
    fn percentiles_come_from_the_buckets_of_every_status_and_node() {
        let routes = histograms(RENDERED);
        let tasks = &routes["GET /api/tasks"];
        assert_eq!(tasks.count, 100.0);
        // The 50th request is the last of the 1–5 ms bucket; the 99th is 90% into 10–100 ms.
        assert_eq!(tasks.percentile_ms(50.0), Some(5.0));
        assert!((tasks.percentile_ms(99.0).unwrap() - 91.0).abs() < 1e-9);
        let mut two_nodes = Histogram::default();
        two_nodes.add(tasks);
        two_nodes.add(tasks);
        assert_eq!(two_nodes.count, 200.0);
        assert_eq!(two_nodes.percentile_ms(50.0), Some(5.0));
    }

    #[test]
    fn a_stretch_counts_what_was_added_to_it_and_a_restart_is_left_out() {
        let earlier = histograms(RENDERED);
        // 30 more requests, all in the 10–100 ms bucket.
        let later = histograms(&RENDERED.replace("} 100\n", "} 130\n"));
        let delta = routes_since(&later, &earlier).unwrap();
        let tasks = &delta["GET /api/tasks"];
        assert_eq!(tasks.count, 30.0);
        assert_eq!(tasks.buckets[&micros(0.01)], 0.0);
        assert_eq!(tasks.buckets[&micros(0.1)], 30.0);
        assert!(tasks.percentile_ms(50.0).unwrap() > 10.0);
        // A node that restarted counts less than before: its stretch is not a difference.
        assert!(routes_since(&earlier, &later).is_none());
        assert!(routes_since(&BTreeMap::new(), &earlier).is_none());
    }
}
