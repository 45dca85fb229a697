import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = p.startTime; const samples = [];
for (let i = 0; i < p.samples.length; i++) { t += p.timeDeltas[i]; samples.push([t, p.samples[i], p.timeDeltas[i]]); }
const end = samples.at(-1)[0];
// busy per 100ms window over last 6 s
const win = new Map();
for (const [ts, id, d] of samples) { if (byId.get(id).callFrame.functionName === "(idle)") continue; const w = Math.floor((end - ts) / 100000); win.set(w, (win.get(w) ?? 0) + d); }
console.log([...win].filter(([w]) => w < 60).sort((a, b) => b[0] - a[0]).map(([w, d]) => `-${(w/10).toFixed(1)}s:${(d/1000).toFixed(0)}`).join(" "));
const [from, to] = process.argv.slice(3).map(Number);
const agg = new Map();
for (const [ts, id, d] of samples) {
  const age = (end - ts) / 1e6; if (age > from || age < to) continue;
  // attribute to nearest project/pi frame up the stack
  let n = byId.get(id); let key = `${n.callFrame.functionName} ${n.callFrame.url.split("/").slice(-2).join("/")}`;
  let cur = id; const chain = [];
  while (cur !== undefined) { const f = byId.get(cur).callFrame; if (/work\/main\/(machines|renderers|tools|schemas)|pi-coding-agent\/dist|pi-tui\/dist/.test(f.url)) { chain.push(`${f.functionName}@${f.url.split("/").slice(-2).join("/")}:${f.lineNumber}`); } cur = parent.get(cur); }
  key = `${key} <= ${chain.slice(0, 3).join(" < ")}`;
  agg.set(key, (agg.get(key) ?? 0) + d);
}
for (const [k, d] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((d / 1000).toFixed(1).padStart(7), k);
