// Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) against a release build serving
// the demo data: home, browse and one task page. Prints the four category scores, LCP and TBT.
//
//   node scripts/lighthouse.mjs            builds the web app and the release server first
//   LIGHTHOUSE_SKIP_BUILD=1 node ...       reuses web/dist and the release binary
//   SERVER_BIN=... CHROME_PATH=... node ... (defaults: $CARGO_TARGET_DIR/release/server, /usr/bin/chromium)
//   LIGHTHOUSE_REPORT_DIR=dir node ...     also keeps each page's full JSON report there
//
// Lighthouse itself comes from `npx --yes lighthouse@13` (not a dependency: it is large and only
// this script uses it).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(web, '..');
const targetDir = process.env.CARGO_TARGET_DIR ?? join(repo, 'target');
const serverBin = process.env.SERVER_BIN ?? join(targetDir, 'release/server');
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const skipBuild = process.env.LIGHTHOUSE_SKIP_BUILD === '1';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

if (!skipBuild) {
  run('npm', ['run', 'build'], { cwd: web });
  run('cargo', ['build', '--release', '-p', 'server'], { cwd: repo });
}
if (!existsSync(serverBin) || !existsSync(join(web, 'dist/index.html'))) {
  console.error(`Need ${serverBin} and web/dist (run without LIGHTHOUSE_SKIP_BUILD=1).`);
  process.exit(1);
}

/**
 * One Lighthouse run's JSON report. Lighthouse sometimes fails to record the page load's trace
 * ("NO_NAVSTART", "Something went wrong with recording the trace"): such a run is tried again.
 */
function lighthouse(url, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return execFileSync(
        'npx',
        [
          '--yes',
          'lighthouse@13',
          url,
          '--output=json',
          '--output-path=stdout',
          '--quiet',
          '--only-categories=performance,accessibility,best-practices,seo',
          '--chrome-flags=--headless=new --no-sandbox',
        ],
        { env: { ...process.env, CHROME_PATH: chrome, npm_config_loglevel: 'error' }, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      const message = String(error.stderr ?? error.message);
      if (attempt === attempts || !/NO_NAVSTART|recording the trace/.test(message)) throw error;
      console.log(`${url}: Lighthouse could not record the trace (attempt ${attempt} of ${attempts}); trying again`);
    }
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'taskhub-lighthouse-'));
const env = { ...process.env, DATA_DIR: dataDir, WEB_DIST: join(web, 'dist'), RUST_LOG: 'warn,server=info' };
run(serverBin, ['seed', '--demo'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const server = spawn(serverBin, [], { env: { ...env, BIND_ADDR: '127.0.0.1:0' }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
const baseUrl = await new Promise((resolveUrl, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 60_000);
  const onData = (chunk) => {
    log += chunk;
    const match = /listening on (http:\/\/[^\s]+)/.exec(log);
    if (match) {
      clearTimeout(timer);
      resolveUrl(match[1]);
    }
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
});

try {
  const tasks = await (await fetch(`${baseUrl}/api/tasks?limit=1`)).json();
  const pages = [
    ['home', '/'],
    ['browse', '/tasks'],
    ['task', `/task/${tasks.items[0].id}`],
  ];
  console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  const rows = [];
  for (const [name, path] of pages) {
    const output = lighthouse(`${baseUrl}${path}`);
    if (process.env.LIGHTHOUSE_REPORT_DIR) writeFileSync(join(process.env.LIGHTHOUSE_REPORT_DIR, `${name}.json`), output);
    const report = JSON.parse(output.toString());
    const score = (id) => Math.round(report.categories[id].score * 100);
    const ms = (id) => report.audits[id].numericValue;
    rows.push({
      page: name,
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      'FCP s': (ms('first-contentful-paint') / 1000).toFixed(2),
      'LCP s': (ms('largest-contentful-paint') / 1000).toFixed(2),
      'TBT ms': Math.round(ms('total-blocking-time')),
    });
    const failing = Object.values(report.audits)
      .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => audit.id);
    if (failing.length) console.log(`${name}: audits below 0.9: ${failing.join(', ')}`);
  }
  console.table(rows);
  console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
