//! WebSocket load program: starts `ws-hub` node(s), opens N sockets spread over source
//! addresses 127.0.0.2–127.0.0.61 (past the ephemeral-port limit of one address), subscribes
//! them all to one topic, and prints the hub's RSS per idle connection, then publishes and
//! prints deliveries per second and publish→receive latency.
//!
//! `ws-load [--conns 10000,50000] [--per-topic K] [--nodes 1|2] [--redis URL] [--events 50]
//! [--rate 20]`. Socket i watches topic `task:bench{i / K}` (default K: everyone on one topic);
//! event n goes to topic `n % (N / K)`, so each event reaches K sockets. With two nodes the
//! sockets alternate between them and events are published on the first, so half the
//! deliveries cross Redis.

use std::{
    net::{Ipv4Addr, SocketAddr},
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::{TcpSocket, TcpStream},
    process::{Child, Command},
    sync::Semaphore,
};
use tokio_tungstenite::tungstenite::{Message, protocol::WebSocketConfig};
use ws_load::{cpu_seconds, now_ns, raise_fd_limit, rss_bytes};

const TOPIC_PREFIX: &str = "task:bench";
const SOURCE_ADDRESSES: u32 = 60;
/// Latency histogram: 10 µs buckets up to 1 s.
const BUCKET_NS: u64 = 10_000;
const BUCKETS: usize = 100_000;

struct Options {
    conns: Vec<usize>,
    per_topic: Option<usize>,
    nodes: usize,
    redis: String,
    events: u64,
    rate: u64,
}

fn options() -> anyhow::Result<Options> {
    let mut o = Options {
        conns: vec![10_000, 50_000],
        per_topic: None,
        nodes: 1,
        redis: "redis://127.0.0.1:6379".into(),
        events: 50,
        rate: 20,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().context("missing value");
        match arg.as_str() {
            "--conns" => {
                o.conns = value()?.split(',').map(str::parse).collect::<Result<_, _>>()?
            }
            "--per-topic" => o.per_topic = Some(value()?.parse()?),
            "--nodes" => o.nodes = value()?.parse()?,
            "--redis" => o.redis = value()?,
            "--events" => o.events = value()?.parse()?,
            "--rate" => o.rate = value()?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(o)
}

struct Node {
    child: Child,
    addr: SocketAddr,
}

async fn start_node(redis: Option<&str>) -> anyhow::Result<Node> {
    let exe = std::env::current_exe()?.with_file_name("ws-hub");
    let mut command = Command::new(exe);
    if let Some(url) = redis {
        command.args(["--redis", url]);
    }
    let mut child = command.stdout(Stdio::piped()).kill_on_drop(true).spawn()?;
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while let Some(line) = lines.next_line().await? {
        if let Some(addr) = line.strip_prefix("listening on http://") {
            return Ok(Node { child, addr: addr.parse()? });
        }
    }
    bail!("ws-hub exited before listening")
}

impl Node {
    fn rss(&self) -> u64 {
        self.child.id().map_or(0, rss_bytes)
    }

    fn cpu(&self) -> f64 {
        self.child.id().map_or(0.0, cpu_seconds)
    }
}

async fn http(addr: SocketAddr, method: &str, path: &str) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    Ok(response.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default())
}

#[derive(Default)]
struct Tally {
    received: AtomicU64,
    first_publish_ns: AtomicU64,
    last_receive_ns: AtomicU64,
    latency: Vec<AtomicU64>,
}

impl Tally {
    fn new() -> Self {
        let latency = (0..=BUCKETS).map(|_| AtomicU64::new(0)).collect();
        Self { first_publish_ns: AtomicU64::new(u64::MAX), latency, ..Default::default() }
    }

    fn record(&self, text: &str) {
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

    fn reset(&self) {
        self.received.store(0, Relaxed);
        self.first_publish_ns.store(u64::MAX, Relaxed);
        self.last_receive_ns.store(0, Relaxed);
        self.latency.iter().for_each(|b| b.store(0, Relaxed));
    }

    fn percentile_ms(&self, p: f64) -> f64 {
        let total: u64 = self.latency.iter().map(|b| b.load(Relaxed)).sum();
        let target = ((total as f64) * p).ceil() as u64;
        let mut seen = 0;
        for (i, bucket) in self.latency.iter().enumerate() {
            seen += bucket.load(Relaxed);
            if seen >= target.max(1) {
                return (i as u64 * BUCKET_NS + BUCKET_NS) as f64 / 1e6;
            }
        }
        f64::NAN
    }
}

async fn open_socket(
    i: usize,
    topic: String,
    node: SocketAddr,
    tally: Arc<Tally>,
) -> anyhow::Result<()> {
    let source = Ipv4Addr::new(127, 0, 0, 2 + (i as u32 % SOURCE_ADDRESSES) as u8);
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source.into(), 0))?;
    let stream = socket.connect(node).await?;
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let url = format!("ws://{node}/ws");
    let (mut ws, _) = tokio_tungstenite::client_async_with_config(url, stream, Some(config)).await?;
    let subscribe = format!(r#"{{"type":"subscribe","topic":"{topic}"}}"#);
    ws.send(Message::text(subscribe)).await?;
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) if text.contains(r#""subscribed""#) => break,
            Some(Ok(_)) => continue,
            other => bail!("socket {i} closed before subscribing: {other:?}"),
        }
    }
    tokio::spawn(async move {
        while let Some(Ok(message)) = ws.next().await {
            if let Message::Text(text) = message {
                tally.record(&text);
            }
        }
    });
    Ok(())
}

async fn hub_stats(nodes: &[Node]) -> String {
    let mut all = Vec::new();
    for node in nodes {
        all.push(http(node.addr, "GET", "/stats").await.unwrap_or_default());
    }
    all.join(" | ")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    raise_fd_limit();
    let o = options()?;
    let redis = (o.nodes > 1).then_some(o.redis.as_str());
    let mut nodes = Vec::new();
    for _ in 0..o.nodes {
        nodes.push(start_node(redis).await?);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline: Vec<u64> = nodes.iter().map(Node::rss).collect();
    println!("nodes: {} ({}), baseline RSS per node: {:?} KiB", o.nodes,
        if o.nodes > 1 { "Redis bus" } else { "in-process bus" },
        baseline.iter().map(|b| b / 1024).collect::<Vec<_>>());

    let tally = Arc::new(Tally::new());
    let handshakes = Arc::new(Semaphore::new(256));
    let mut open = 0;
    for &target in &o.conns {
        let started = Instant::now();
        let mut tasks = Vec::new();
        let per_topic = o.per_topic.unwrap_or(usize::MAX).max(1);
        for i in open..target {
            let node = nodes[i % nodes.len()].addr;
            let topic = format!("{TOPIC_PREFIX}{}", i / per_topic);
            let (tally, handshakes) = (tally.clone(), handshakes.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = handshakes.acquire_owned().await;
                open_socket(i, topic, node, tally).await
            }));
        }
        let mut failed = 0;
        for task in tasks {
            if !matches!(task.await, Ok(Ok(()))) {
                failed += 1;
            }
        }
        if failed > 0 {
            bail!("{failed} of {} sockets failed to open", target - open);
        }
        open = target;
        println!("\n== {open} sockets open and subscribed in {:.1?}", started.elapsed());

        tokio::time::sleep(Duration::from_secs(2)).await;
        let rss: u64 = nodes.iter().map(Node::rss).sum();
        let base: u64 = baseline.iter().sum();
        println!(
            "hub RSS {} MiB total, {:.0} bytes per idle connection",
            rss / (1 << 20),
            (rss.saturating_sub(base)) as f64 / open as f64
        );

        tally.reset();
        let hub_cpu_before: f64 = nodes.iter().map(Node::cpu).sum();
        let own_cpu_before = cpu_seconds(std::process::id());
        let per_topic = o.per_topic.unwrap_or(open).min(open);
        let topics = open.div_ceil(per_topic);
        let expected: u64 = (0..o.events as usize)
            .map(|n| (open - (n % topics) * per_topic).min(per_topic) as u64)
            .sum();
        let path = format!(
            "/burst?topic={TOPIC_PREFIX}&topics={topics}&count={}&rate={}",
            o.events, o.rate
        );
        http(nodes[0].addr, "POST", &path).await?;
        let deadline = Instant::now() + Duration::from_secs(o.events / o.rate.max(1) + 30);
        while tally.received.load(Relaxed) < expected && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let received = tally.received.load(Relaxed);
        let span_ns = tally
            .last_receive_ns
            .load(Relaxed)
            .saturating_sub(tally.first_publish_ns.load(Relaxed))
            .max(1);
        println!(
            "published {} events at {}/s over {topics} topic(s) of {per_topic} sockets: \
             received {received}/{expected}, {:.0} deliveries/s, latency p50 {:.2} ms, \
             p99 {:.2} ms, max {:.2} ms",
            o.events,
            o.rate,
            received as f64 / (span_ns as f64 / 1e9),
            tally.percentile_ms(0.50),
            tally.percentile_ms(0.99),
            tally.percentile_ms(1.0),
        );
        let hub_cpu = nodes.iter().map(Node::cpu).sum::<f64>() - hub_cpu_before;
        let own_cpu = cpu_seconds(std::process::id()) - own_cpu_before;
        println!(
            "CPU per delivery: hub {:.2} µs, load clients {:.2} µs",
            hub_cpu * 1e6 / received.max(1) as f64,
            own_cpu * 1e6 / received.max(1) as f64
        );
        println!("hub stats: {}", hub_stats(&nodes).await);
    }
    Ok(())
}
