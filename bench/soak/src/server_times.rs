//! The server's own view of the run: each node's request-duration histogram
//! (`http_request_duration_seconds` on `/metrics`, per route template), summed over the nodes and
//! read at the end, so a run tells whether a slow p99 is the server's or the machine's (the soak's
//! clients share the cores). A node restarted by a fault counts from its restart.

use std::collections::BTreeMap;

use anyhow::Context;

/// Cumulative counts per upper bound (seconds), as Prometheus renders a histogram.
#[derive(Default)]
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

/// Reads every node's `/metrics` and prints the server-side p50/p99 overall and for the busiest
/// routes. A node that does not answer is named and left out.
pub async fn print(node_urls: &[String]) -> anyhow::Result<()> {
    let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build()?;
    let mut all: BTreeMap<String, Histogram> = BTreeMap::new();
    for node in node_urls {
        let text = match client.get(format!("{node}/metrics")).send().await {
            Ok(response) => response.text().await.with_context(|| format!("reading {node}/metrics"))?,
            Err(error) => {
                println!("server-side: {node}/metrics did not answer ({error}); left out");
                continue;
            }
        };
        for (route, histogram) in histograms(&text) {
            all.entry(route).or_default().add(&histogram);
        }
    }
    let mut total = Histogram::default();
    for histogram in all.values() {
        total.add(histogram);
    }
    let ms = |value: Option<f64>| value.map_or("-".to_owned(), |ms| format!("{ms:.1} ms"));
    println!(
        "server-side REST (every node, since its last start): {} requests, p50 {}, p99 {}",
        total.count,
        ms(total.percentile_ms(50.0)),
        ms(total.percentile_ms(99.0))
    );
    let mut busiest: Vec<(&String, &Histogram)> = all.iter().filter(|(_, h)| h.count > 0.0).collect();
    busiest.sort_by(|a, b| b.1.count.total_cmp(&a.1.count));
    for (route, histogram) in busiest.into_iter().take(12) {
        println!(
            "  {route:<48} {:>8} requests, p50 {:>9}, p99 {:>9}",
            histogram.count,
            ms(histogram.percentile_ms(50.0)),
            ms(histogram.percentile_ms(99.0))
        );
    }
    Ok(())
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
}
