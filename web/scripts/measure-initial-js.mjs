// Sums the gzip size of the JavaScript a first visit loads: the entry script and its modulepreloads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const file of new Set(files)) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const kb = total / 1024;
console.log(`${kb.toFixed(1).padStart(7)} KB  initial JS (gzip)`);
// 112 KB until 2026-11-25; 113 since the first load carries the verification badges on task cards and
// the sign-out of a suspended session (both on the home page's path).
const budget = Number(process.env.INITIAL_JS_BUDGET_KB ?? 113);
if (kb > budget) {
  console.error(`Initial JS ${kb.toFixed(1)} KB exceeds the ${budget} KB budget`);
  process.exit(1);
}
