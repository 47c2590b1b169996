// Starts the real Taskhub server on port 0 with a fresh data directory, waits for its
// "listening on" line, runs the browser tests against it, then stops it.
// With E2E_BASE_URL (e.g. the loopback cluster of scripts/cluster.sh behind nginx) the tests run
// against that deployment instead, which must serve the built web app and its dev mailbox.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = process.argv.slice(2).map((file) => resolve(file));

/** Runs the test files against `baseUrl`; resolves to the exit code. */
function runTests(baseUrl) {
  const tests = spawn(
    process.execPath,
    ['--test', '--test-concurrency=1', '--test-reporter=spec', ...(files.length ? files : [join(web, 'e2e/tests')])],
    { cwd: web, env: { ...process.env, BASE_URL: baseUrl }, stdio: 'inherit' },
  );
  return new Promise((r) => tests.on('exit', (c) => r(c ?? 1)));
}

if (process.env.E2E_BASE_URL) {
  console.log(`running against ${process.env.E2E_BASE_URL}`);
  process.exit(await runTests(process.env.E2E_BASE_URL));
}

const targetDir = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache/taskhub/target');
const serverBin = process.env.SERVER_BIN ?? join(targetDir, 'debug/server');
const dist = join(web, 'dist');

if (!existsSync(serverBin)) {
  console.error(`Server binary not found at ${serverBin}. Build it (cargo build -p server) or set SERVER_BIN.`);
  process.exit(1);
}
if (process.env.E2E_SKIP_BUILD !== '1' || !existsSync(join(dist, 'index.html'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: web, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'taskhub-e2e-'));
const server = spawn(serverBin, [], {
  env: {
    ...process.env,
    BIND_ADDR: '127.0.0.1:0',
    DATA_DIR: dataDir,
    DEV_MODE: 'true',
    // The operators of the disputes scenario and of the accessibility check (each test file signs its own up).
    ADMIN_EMAILS: process.env.ADMIN_EMAILS ?? 'operator@example.com,a11y-operator@example.com',
    WEB_DIST: dist,
    // The suite signs dozens of people up from one address within a minute; the limits
    // themselves are tested in server/tests/rate_limits.rs.
    AUTH_RATE_LIMIT_PER_MINUTE: process.env.AUTH_RATE_LIMIT_PER_MINUTE ?? '600',
    // Every e2e test posts from 127.0.0.1.
    TASK_POSTS_PER_CLIENT_PER_HOUR: process.env.TASK_POSTS_PER_CLIENT_PER_HOUR ?? '10000',
    RUST_LOG: process.env.RUST_LOG ?? 'warn,server=info',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});

let log = '';
const baseUrl = await new Promise((resolveUrl, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start within 60 s:\n${log}`)), 60_000);
  const onData = (chunk) => {
    log += chunk;
    const match = /listening on (http:\/\/[^\s]+)/.exec(log);
    if (match) {
      clearTimeout(timer);
      resolveUrl(match[1].replace('0.0.0.0', '127.0.0.1'));
    }
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.on('exit', (code) => reject(new Error(`server exited early (${code}):\n${log}`)));
}).catch((error) => {
  console.error(error.message);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});

console.log(`server ready at ${baseUrl} (data in ${dataDir})`);
const code = await runTests(baseUrl);

server.kill('SIGTERM');
await new Promise((r) => {
  const force = setTimeout(() => server.kill('SIGKILL'), 5_000);
  server.on('exit', () => {
    clearTimeout(force);
    r();
  });
});
if (code !== 0 && process.env.E2E_SERVER_LOG !== '0') console.error(`--- server log ---\n${log.slice(-4000)}`);
rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
