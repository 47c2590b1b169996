//! WebSocket load program. Starts `ws-hub` node(s) and client worker processes, opens N sockets
//! spread over source addresses 127.0.0.2–127.0.0.61 (past the ephemeral-port limit of one
//! address), subscribes them, prints the hub's RSS per idle connection, then publishes and prints
//! deliveries per second and publish→receive latency.
//!
//! `ws-load [--conns 10000,50000] [--per-topic K] [--nodes 1|2|…] [--redis URL] [--events 50]
//! [--rate 20]`. Socket i watches topic `task:bench{i / K}` (default K: everyone on one topic);
//! event n goes to topic `n % (N / K)`, so each event reaches K sockets. With several nodes the
//! sockets alternate between them (Redis bus) and events are published on the first, so most
//! deliveries cross Redis. One process may hold about 20k descriptors on this machine, so a
//! node holds at most ~18k sockets and the clients are split over worker processes.

mod tally;
mod worker;

use std::{
    net::SocketAddr,
    process::Stdio,
    sync::atomic::Ordering::Relaxed,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines},
    net::TcpStream,
    process::{Child, ChildStdin, ChildStdout, Command},
};
use ws_load::{cpu_seconds, fd_limit, raise_fd_limit, rss_bytes};

use crate::{tally::Tally, worker::TOPIC_PREFIX};

/// Descriptors a process keeps for everything but sockets (listeners, Redis, /proc, pipes).
const SPARE_DESCRIPTORS: u64 = 2_000;

/// Sockets one process (a hub node, a client worker) may hold: its raised descriptor limit
/// less a margin. 18k where the hard limit is 20k; 50k and more on one node where root may raise
/// it (`ulimit -Hn`, `LimitNOFILE=`); children inherit the raised limit.
fn sockets_per_process() -> usize {
    fd_limit().saturating_sub(SPARE_DESCRIPTORS).max(1_000) as usize
}

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
            "--conns" => o.conns = value()?.split(',').map(str::parse).collect::<Result<_, _>>()?,
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

impl Node {
    async fn start(redis: Option<&str>) -> anyhow::Result<Node> {
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

    fn rss(&self) -> u64 {
        self.child.id().map_or(0, rss_bytes)
    }

    fn cpu(&self) -> f64 {
        self.child.id().map_or(0.0, cpu_seconds)
    }
}

struct Worker {
    _child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

impl Worker {
    fn start() -> anyhow::Result<Worker> {
        let mut child = Command::new(std::env::current_exe()?)
            .arg("--worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Ok(Worker { _child: child, stdin, stdout })
    }

    async fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        self.stdin.write_all(format!("{command}\n").as_bytes()).await?;
        let answer = self.stdout.next_line().await?.context("worker exited")?;
        if let Some(error) = answer.strip_prefix("failed ") {
            bail!("worker: {error}");
        }
        Ok(answer)
    }
}

async fn http(addr: SocketAddr, method: &str, path: &str) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    Ok(response.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    raise_fd_limit();
    if std::env::args().nth(1).as_deref() == Some("--worker") {
        return worker::run().await;
    }
    let o = options()?;
    let most = o.conns.iter().copied().max().unwrap_or(0);
    let per_process = sockets_per_process();
    if most.div_ceil(o.nodes) > per_process {
        bail!(
            "{most} sockets need at least {} nodes here (a process may hold {} descriptors; raise `ulimit -Hn`)",
            most.div_ceil(per_process),
            fd_limit()
        );
    }
    let redis = (o.nodes > 1).then_some(o.redis.as_str());
    let mut nodes = Vec::new();
    for _ in 0..o.nodes {
        nodes.push(Node::start(redis).await?);
    }
    let addrs: Vec<String> = nodes.iter().map(|n| n.addr.to_string()).collect();
    let mut workers = Vec::new();
    for _ in 0..most.div_ceil(per_process) {
        workers.push(Worker::start()?);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline: u64 = nodes.iter().map(Node::rss).sum();
    println!(
        "{} node(s), {}; baseline hub RSS {} KiB; {} client worker process(es); load average {}",
        o.nodes,
        if o.nodes > 1 { "Redis bus" } else { "in-process bus" },
        baseline / 1024,
        workers.len(),
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );

    let mut open = 0;
    for &target in &o.conns {
        let per_topic = o.per_topic.unwrap_or(usize::MAX).max(1);
        let started = Instant::now();
        let mut from = open;
        let mut requests = Vec::new();
        for (w, worker) in workers.iter_mut().enumerate() {
            let capacity_end = ((w + 1) * per_process).min(target);
            let start = from.max(w * per_process);
            if start < capacity_end {
                requests.push((worker, format!("open {start} {capacity_end} {per_topic} {}", addrs.join(","))));
                from = capacity_end;
            }
        }
        let answers = futures_util::future::join_all(
            requests.into_iter().map(|(worker, command)| async move { worker.ask(&command).await }),
        )
        .await;
        for answer in answers {
            answer?;
        }
        open = target;
        println!("\n== {open} sockets open and subscribed in {:.1?}", started.elapsed());

        tokio::time::sleep(Duration::from_secs(2)).await;
        let rss: u64 = nodes.iter().map(Node::rss).sum();
        println!(
            "hub RSS {} MiB over {} node(s): {:.0} bytes per idle connection",
            rss >> 20,
            nodes.len(),
            rss.saturating_sub(baseline) as f64 / open as f64
        );

        for worker in &mut workers {
            worker.ask("reset").await?;
        }
        let hub_cpu_before: f64 = nodes.iter().map(Node::cpu).sum();
        let mut client_cpu_before = 0.0;
        for worker in &mut workers {
            client_cpu_before += worker.ask("cpu").await?[4..].parse::<f64>()?;
        }
        let per_topic = per_topic.min(open);
        let topics = open.div_ceil(per_topic);
        let expected: u64 =
            (0..o.events as usize).map(|n| (open - (n % topics) * per_topic).min(per_topic) as u64).sum();
        let path = format!("/burst?topic={TOPIC_PREFIX}&topics={topics}&count={}&rate={}", o.events, o.rate);
        http(nodes[0].addr, "POST", &path).await?;
        let deadline = Instant::now() + Duration::from_secs(o.events / o.rate.max(1) + 30);
        let tally = loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let tally = Tally::new();
            for worker in &mut workers {
                tally.merge(&worker.ask("report").await?[7..])?;
            }
            if tally.received.load(Relaxed) >= expected || Instant::now() > deadline {
                break tally;
            }
        };
        let received = tally.received.load(Relaxed);
        let span_ns = tally.last_receive_ns.load(Relaxed).saturating_sub(tally.first_publish_ns.load(Relaxed)).max(1);
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
        let mut client_cpu = -client_cpu_before;
        for worker in &mut workers {
            client_cpu += worker.ask("cpu").await?[4..].parse::<f64>()?;
        }
        println!(
            "CPU per delivery: hubs {:.2} µs, load clients {:.2} µs",
            hub_cpu * 1e6 / received.max(1) as f64,
            client_cpu * 1e6 / received.max(1) as f64
        );
        for node in &nodes {
            println!("hub stats: {}", http(node.addr, "GET", "/stats").await.unwrap_or_default());
        }
    }
    Ok(())
}
