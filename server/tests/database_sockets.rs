//! The PostgreSQL client sends each message as soon as it is written. With Nagle's algorithm on
//! (sqlx 0.9.0's default: vendor/README.md) a message written in two parts, as every message
//! above 16 KiB is over TLS, waits for the server's delayed ACK, 40 ms on Linux: the alert
//! matcher's array inserts stalled on it. The test plays the server on a loopback port of its
//! own, so it needs no database and runs the same wherever the suite's PostgreSQL listens.

use std::{
    net::SocketAddr,
    os::fd::{BorrowedFd, RawFd},
};

use socket2::SockRef;
use sqlx::{Connection, PgConnection};
use tokio::{io::AsyncReadExt, net::TcpListener};

#[tokio::test]
async fn a_postgres_connection_sends_without_waiting_for_acks() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let connecting = tokio::spawn(async move {
        PgConnection::connect(&format!("postgres://taskhub@127.0.0.1:{port}/taskhub?sslmode=disable")).await
    });
    let (mut server_side, client) = listener.accept().await.unwrap();
    // The startup message's length: the client has connected and written, and now waits for us.
    let mut length = [0u8; 4];
    server_side.read_exact(&mut length).await.unwrap();

    let nodelay = client_socket_nodelay(client).expect("the client's end of the connection is this process's");
    assert!(nodelay, "TCP_NODELAY is off on the PostgreSQL client's socket: large messages wait 40 ms for an ACK");
    connecting.abort();
}

/// `TCP_NODELAY` of this process's socket whose local address is `client` (sqlx does not hand
/// out its socket, so it is found among the process's open descriptors).
fn client_socket_nodelay(client: SocketAddr) -> Option<bool> {
    for entry in std::fs::read_dir("/proc/self/fd").ok()? {
        let Some(fd) = entry.ok().and_then(|entry| entry.file_name().to_str()?.parse::<RawFd>().ok()) else {
            continue;
        };
        // SAFETY: only read (getsockname, getsockopt) while the test's sockets stay open; a
        // descriptor another test closes meanwhile fails the calls and is skipped.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let socket = SockRef::from(&fd);
        if socket.local_addr().ok().and_then(|address| address.as_socket()) == Some(client) {
            return socket.tcp_nodelay().ok();
        }
    }
    None
}
