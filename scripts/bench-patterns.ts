/**
 * The benchmark's pattern row: the worst patterns a model may write for an
 * `ask_form` field, with a 10 kB default and a 10 kB paste, measured on the
 * sources in this process (`npm run bench -- --patterns` prints only it).
 *
 * - the argument check (ajv, the subset, the pattern, the default checked
 *   against its own field) of `[\s\S]{1000}` written nine times with a
 *   10 kB default, which the check refuses, and of the costliest patterns it
 *   accepts with the longest default each can check;
 * - keystroke → frame (`handleInput` + `render(120)`) in a field holding a
 *   10 kB paste (too long for those patterns to check: refused without a
 *   run), and holding the longest text each checks, each key making a text
 *   not checked before.
 *
 * Each sample of the argument check uses a default of its own, so no kept
 * result answers it; one call first loads ajv and RE2 (not counted).
 */
import { getKeybindings } from "@mariozechner/pi-tui";
import { FormSession } from "../machines/session.js";
import { FormComponent } from "../renderers/terminal/component.js";
import { plainTheme } from "../renderers/theme.js";
import { compilePattern } from "../schemas/patterns.js";
import { FORM_TOOLS } from "../tools/engine/catalog.js";
import { prepareArgumentsOf } from "../tools/manifest.js";

export interface PatternFigures {
  measure: string;
  /** Wall time. */
  median: number;
  p90: number;
  max: number;
  /** CPU time of the process (on a shared machine, what the work itself cost). */
  cpuMedian: number;
  cpuMax: number;
  /** The CPU time of every sample under 50 ms, the bound a keystroke or an argument check keeps. */
  ok: boolean;
}

/** Wall and CPU milliseconds of one sample. */
type Sample = [wall: number, cpu: number];

function timed(run: () => void): Sample {
  const cpu = process.cpuUsage();
  const t = performance.now();
  run();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return [wall, (used.user + used.system) / 1000];
}

/** `[\s\S]{1000}` nine times: what once took seconds per key. */
export const REFUSED = "[\\s\\S]{1000}".repeat(9);
/** Accepted patterns near the size limit, chosen to keep RE2's engines as busy as a text allows. */
export const ACCEPTED = [
  "(?:a[\\s\\S]{95}){3}$",
  "a[\\s\\S]{99}b[\\s\\S]{99}a[\\s\\S]{95}$",
  "^(?:[ab]*a[ab]{5}){30}$",
];
const TEXT = 10_000;

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
/** 10 kB of a and b at random: a text on which the patterns above keep many threads alive. */
const abText = (n: number) => Array.from({ length: n }, () => (random() < 0.5 ? "a" : "b")).join("");

const askForm = FORM_TOOLS.find((t) => t.name === "ask_form")!;
const args = (pattern: string, text?: string) => ({
  message: "Worst pattern",
  requestedSchema: {
    type: "object",
    properties: { a: text === undefined ? { type: "string", pattern } : { type: "string", pattern, default: text } },
  },
});

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];
function figures(measure: string, samples: Sample[]): PatternFigures {
  const wall = samples.map((s) => s[0]);
  const cpu = samples.map((s) => s[1]);
  return {
    measure,
    median: quantile(wall, 0.5),
    p90: quantile(wall, 0.9),
    max: Math.max(...wall),
    cpuMedian: quantile(cpu, 0.5),
    cpuMax: Math.max(...cpu),
    ok: Math.max(...cpu) < 50,
  };
}

/** The longest text `pattern` checks. */
function longest(pattern: string): number {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  return compiled.pattern.maxText();
}

function argumentCheck(pattern: string, samples: number, length: number): Sample[] {
  const times: Sample[] = [];
  for (let i = 0; i < samples; i++) {
    const written = args(pattern, abText(length));
    const raw = prepareArgumentsOf(askForm)?.(written) ?? written;
    times.push(timed(() => askForm.check(raw)));
  }
  return times;
}

function keystrokes(pattern: string, keys: number, length: number): Sample[] {
  const written = args(pattern);
  const checked = askForm.check(prepareArgumentsOf(askForm)?.(written) ?? written);
  if (!checked.ok) throw new Error(`${pattern}: ${checked.error.message}`);
  const spec = askForm.form(checked.value);
  const form = new FormComponent(
    new FormSession({ spec }),
    { terminal: { rows: 40, columns: 120 }, requestRender() {} },
    plainTheme,
    { keybindings: getKeybindings() },
  );
  form.focused = true;
  form.handleInput(`\x1b[200~${abText(length)}\x1b[201~`);
  form.render(120);
  const times: Sample[] = [];
  for (let i = 0; i < keys; i++) {
    // Every key makes a text not checked before (a kept result answers nothing here).
    const key = "ab"[i % 2];
    times.push(
      timed(() => {
        form.handleInput(key);
        form.render(120);
      }),
    );
  }
  return times;
}

export function patternFigures(quick: boolean): PatternFigures[] {
  const samples = quick ? 3 : 9;
  const keys = quick ? 20 : 100;
  argumentCheck(ACCEPTED[0], 1, 10);
  const out = [
    figures(
      `argument check, ${REFUSED.slice(0, 12)} ×9 + 10 kB default (refused)`,
      argumentCheck(REFUSED, samples, TEXT),
    ),
  ];
  let check: Sample[] = [];
  let pasted: Sample[] = [];
  let typed: Sample[] = [];
  for (const pattern of ACCEPTED) {
    check = check.concat(argumentCheck(pattern, samples, longest(pattern)));
    pasted = pasted.concat(keystrokes(pattern, keys, TEXT));
    typed = typed.concat(keystrokes(pattern, keys, longest(pattern) - keys));
  }
  const n = ACCEPTED.length;
  out.push(figures(`argument check, worst accepted patterns + the longest default each checks (${n})`, check));
  out.push(figures(`keystroke→frame, worst accepted patterns, 10 kB paste (${n})`, pasted));
  out.push(figures(`keystroke→frame, worst accepted patterns, the longest text each checks (${n})`, typed));
  return out;
}

/** The row on its own. */
export function printPatternFigures(quick: boolean): void {
  for (const f of patternFigures(quick))
    console.log(
      `| ${f.measure} | median ${f.median.toFixed(1)} ms, p90 ${f.p90.toFixed(1)}, max ${f.max.toFixed(1)} | CPU median ${f.cpuMedian.toFixed(1)} ms, max ${f.cpuMax.toFixed(1)} | ${f.ok ? "✓" : "✗"} CPU < 50 ms |`,
    );
}
