//! A client worker process (`ws-load --worker`): holds up to ~18k sockets, because one process
//! may not open more descriptors here. Commands on stdin, one per line, each answered on stdout:
//! `open <from> <to> <per_topic> <addr,addr…>` → `opened`, `reset` → `ok`,
//! `report` → `report <received> <first_ns> <last_ns> <buckets>`.

use std::{
    net::{Ipv4Addr, SocketAddr},
    sync::Arc,
};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    net::TcpSocket,
    sync::Semaphore,
};
use tokio_tungstenite::tungstenite::{Message, protocol::WebSocketConfig};
use ws_load::cpu_seconds;

use crate::tally::Tally;

pub const TOPIC_PREFIX: &str = "task:bench";
const SOURCE_ADDRESSES: usize = 60;

async fn open_socket(i: usize, topic: String, node: SocketAddr, tally: Arc<Tally>) -> anyhow::Result<()> {
    let source = Ipv4Addr::new(127, 0, 0, 2 + (i % SOURCE_ADDRESSES) as u8);
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source.into(), 0))?;
    let stream = socket.connect(node).await?;
    stream.set_nodelay(true)?;
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

async fn open(args: &[&str], tally: &Arc<Tally>) -> anyhow::Result<()> {
    let [from, to, per_topic, addrs] = args else { bail!("open <from> <to> <per_topic> <addrs>") };
    let (from, to, per_topic): (usize, usize, usize) = (from.parse()?, to.parse()?, per_topic.parse()?);
    let nodes: Vec<SocketAddr> = addrs.split(',').map(str::parse).collect::<Result<_, _>>()?;
    let handshakes = Arc::new(Semaphore::new(256));
    let mut tasks = Vec::new();
    for i in from..to {
        let node = nodes[i % nodes.len()];
        let topic = format!("{TOPIC_PREFIX}{}", i / per_topic.max(1));
        let (tally, handshakes) = (tally.clone(), handshakes.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = handshakes.acquire_owned().await;
            open_socket(i, topic, node, tally).await
        }));
    }
    let mut failures = 0;
    let mut first_error = None;
    for task in tasks {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                failures += 1;
                first_error.get_or_insert(error.to_string());
            }
            Err(error) => {
                failures += 1;
                first_error.get_or_insert(error.to_string());
            }
        }
    }
    if failures > 0 {
        bail!("{failures} sockets failed, first: {}", first_error.unwrap_or_default());
    }
    Ok(())
}

pub async fn run() -> anyhow::Result<()> {
    let tally = Arc::new(Tally::new());
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Some(line) = lines.next_line().await.context("stdin")? {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["open", args @ ..] => match open(args, &tally).await {
                Ok(()) => println!("opened"),
                Err(error) => println!("failed {error}"),
            },
            ["reset"] => {
                tally.reset();
                println!("ok");
            }
            ["report"] => println!("report {}", tally.report()),
            ["cpu"] => println!("cpu {}", cpu_seconds(std::process::id())),
            _ => println!("failed unknown command"),
        }
    }
    Ok(())
}
