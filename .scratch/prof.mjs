import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
// self time per node
const self = new Map();
const dt = p.timeDeltas;
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
// window: last N seconds before end?
const agg = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-3).join("/")}:${n.callFrame.lineNumber}`;
  agg.set(key, (agg.get(key) ?? 0) + t);
}
const top = [...agg].sort((a, b) => b[1] - a[1]).slice(0, 40);
for (const [k, t] of top) console.log((t / 1000).toFixed(1).padStart(8), "ms", k);
