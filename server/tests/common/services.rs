//! PostgreSQL and Redis for the tests that need them, so that a plain `cargo test` runs every
//! variant instead of reporting skipped ones as passed.
//!
//! - `TEST_DATABASE_URL` / `TEST_REDIS_URL` set: those services are used (`make test` sets them).
//! - Otherwise the first test that needs one starts a throwaway instance for the whole test
//!   process from the installed binaries (`initdb`/`pg_ctl` under /usr/lib/postgresql/*/bin or
//!   on PATH, `redis-server`). Both listen on a unix socket in a fresh temp dir only: no TCP port
//!   is ever picked, released or reused. A watchdog shell, holding the read end of a pipe the test
//!   process never closes, stops them and removes the dir when the test process exits, however
//!   it exits.
//! - Neither possible: the test fails with a message naming the variable to set.
//! - `TASKHUB_SKIP_POSTGRES=1` / `TASKHUB_SKIP_REDIS=1`: the build scripts turn these into the
//!   `taskhub_skip_postgres` / `taskhub_skip_redis` cfgs and those tests are compiled as
//!   `#[ignore]`, so they are reported as ignored, never as ok.
//!
//! Shared by the server and realtime test harnesses (`#[path]`), so it depends on std only.
#![allow(dead_code)]

use std::{
    io::{Read, Write},
    os::unix::net::UnixStream,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::OnceLock,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

const STARTUP: Duration = Duration::from_secs(30);

/// The PostgreSQL server URL to create test databases on.
pub fn postgres_url() -> String {
    if let Some(url) = env("TEST_DATABASE_URL") {
        return url;
    }
    if env("TASKHUB_SKIP_POSTGRES").is_some() {
        panic!("TASKHUB_SKIP_POSTGRES is set but this test was built without it: rebuild (cargo test) to ignore it");
    }
    static POSTGRES: OnceLock<Result<String, String>> = OnceLock::new();
    match POSTGRES.get_or_init(start_postgres) {
        Ok(url) => url.clone(),
        Err(why) => panic!(
            "\n\nThe Postgres variant cannot run: TEST_DATABASE_URL is not set and no throwaway PostgreSQL \
             could be started ({why}).\nSet TEST_DATABASE_URL=postgres://… (or run under \
             scripts/with-test-services.sh), install PostgreSQL, or set TASKHUB_SKIP_POSTGRES=1 to mark \
             these tests ignored.\n"
        ),
    }
}

/// The Redis URL shared by the tests of this process that need a Redis bus.
pub fn redis_url() -> String {
    if let Some(url) = env("TEST_REDIS_URL") {
        return url;
    }
    if env("TASKHUB_SKIP_REDIS").is_some() {
        panic!("TASKHUB_SKIP_REDIS is set but this test was built without it: rebuild (cargo test) to ignore it");
    }
    static REDIS: OnceLock<Result<String, String>> = OnceLock::new();
    let started = REDIS.get_or_init(|| {
        let server = RedisServer::start()?;
        let url = server.url();
        std::mem::forget(server); // lives as long as the process; the watchdog stops it
        Ok(url)
    });
    match started {
        Ok(url) => url.clone(),
        Err(why) => panic!("{}", no_redis(why)),
    }
}

fn no_redis(why: &str) -> String {
    format!(
        "\n\nThe Redis variant cannot run: TEST_REDIS_URL is not set and no throwaway Redis could be started \
         ({why}).\nSet TEST_REDIS_URL=redis://… (or run under scripts/with-test-services.sh), install \
         redis-server, or set TASKHUB_SKIP_REDIS=1 to mark these tests ignored.\n"
    )
}

/// A `redis-server` of the test's own on a unix socket, which it may stop and restart (on the
/// same socket) to simulate an outage. Killed on drop, and by the watchdog if the process dies.
pub struct RedisServer {
    dir: PathBuf,
    child: Option<Child>,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer, String> {
        let dir = fresh_dir("taskhub-redis")?;
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let pidfile = dir.join("redis.pid");
        watchdog(&format!(
            "[ -f {pid} ] && kill -9 \"$(cat {pid})\"; rm -rf {dir}",
            pid = quote(&pidfile),
            dir = quote(&dir)
        ))?;
        let mut server = RedisServer { dir, child: None };
        server.restart()?;
        Ok(server)
    }

    /// Starts it, panicking with the reason when it does not come up.
    pub fn start_or_panic() -> RedisServer {
        RedisServer::start().unwrap_or_else(|why| panic!("{}", no_redis(&why)))
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.join("redis.sock")
    }

    pub fn url(&self) -> String {
        format!("redis+unix://{}", self.socket().display())
    }

    /// Starts the server (again, on the same socket) and waits until it answers PING.
    pub fn restart(&mut self) -> Result<(), String> {
        assert!(self.child.is_none(), "redis-server is already running");
        let socket = self.socket();
        std::fs::remove_file(&socket).ok();
        let log = std::fs::File::create(self.dir.join("redis.log")).map_err(|e| e.to_string())?;
        let child = Command::new("redis-server")
            .args(["--port", "0", "--unixsocket"])
            .arg(&socket)
            .args(["--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir"])
            .arg(&self.dir)
            .arg("--pidfile")
            .arg(self.dir.join("redis.pid"))
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("running redis-server: {e}"))?;
        self.child = Some(child);
        let deadline = Instant::now() + STARTUP;
        while Instant::now() < deadline {
            if redis_answers(&socket) {
                return Ok(());
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                return Err(format!("redis-server exited with {status}: {}", self.log()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stop();
        Err(format!("redis-server did not answer PING within {STARTUP:?}: {}", self.log()))
    }

    /// Kills the server (an outage, as far as its clients can tell).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().ok();
            child.wait().ok();
        }
        std::fs::remove_file(self.dir.join("redis.pid")).ok();
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("redis.log")).unwrap_or_default()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

fn redis_answers(socket: &Path) -> bool {
    let Ok(mut stream) = UnixStream::connect(socket) else { return false };
    stream.set_read_timeout(Some(Duration::from_secs(1))).ok();
    let mut reply = [0u8; 5];
    stream.write_all(b"PING\r\n").is_ok() && stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG"
}

fn start_postgres() -> Result<String, String> {
    let bin = postgres_bin_dir().ok_or("no initdb under /usr/lib/postgresql/*/bin or on PATH")?;
    // initdb creates the dir itself (as the postgres user when we are root: it refuses root).
    let dir = fresh_dir("taskhub-pg")?;
    let pg_ctl = bin.join("pg_ctl");
    watchdog(&format!(
        "{as_pg}{pg_ctl} -D {dir} -m immediate stop; rm -rf {dir}",
        as_pg = if is_root() { "runuser -u postgres -- " } else { "" },
        pg_ctl = quote(&pg_ctl),
        dir = quote(&dir)
    ))?;
    let initdb = as_postgres(&bin.join("initdb"))
        .arg("-D")
        .arg(&dir)
        .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("running initdb: {e}"))?;
    if !initdb.status.success() {
        return Err(format!("initdb failed: {}", String::from_utf8_lossy(&initdb.stderr)));
    }
    let options = format!(
        "-c listen_addresses='' -k {} -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
         -c max_connections=300",
        dir.display()
    );
    let log = dir.join("server.log");
    let started = as_postgres(&pg_ctl)
        .arg("-D")
        .arg(&dir)
        .args(["-w", "-t", "60", "-l"])
        .arg(&log)
        .args(["-o", &options, "start"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("running pg_ctl: {e}"))?;
    if !started.success() {
        return Err(format!("pg_ctl start failed: {}", std::fs::read_to_string(&log).unwrap_or_default()));
    }
    eprintln!("(started a throwaway PostgreSQL in {} for this test process)", dir.display());
    Ok(format!("postgres://postgres@localhost/postgres?host={}", dir.display()))
}

fn postgres_bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|dir| dir.join("initdb").exists() && dir.join("pg_ctl").exists())
}

fn is_root() -> bool {
    // std has no getuid; /proc/self/status says who we are.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// A path under the temp dir that does not exist yet.
fn fresh_dir(prefix: &str) -> Result<PathBuf, String> {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()));
    if dir.exists() {
        return Err(format!("{} exists already", dir.display()));
    }
    Ok(dir)
}

/// Runs `cleanup` once this process has exited: a shell waits for EOF on a pipe whose write end
/// only this process holds (std opens it close-on-exec, so no other child inherits it).
fn watchdog(cleanup: &str) -> Result<(), String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("trap '' INT TERM HUP; read -r _ignored; {cleanup}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting the cleanup watchdog: {e}"))?;
    std::mem::forget(child.stdin.take());
    std::mem::forget(child);
    Ok(())
}

fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.trim().is_empty())
}
