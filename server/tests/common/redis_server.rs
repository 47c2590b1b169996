//! A Redis server of a test's own (so it can be stopped and started again).

use std::{process::Stdio, time::Duration};

use tokio::{net::TcpStream, process::Child};

/// Starts `redis-server` on `port` without persistence and waits until it accepts connections.
pub async fn start_redis(port: u16) -> Child {
    let child = tokio::process::Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("redis-server is installed");
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child
}

pub async fn free_port() -> u16 {
    tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap().port()
}
