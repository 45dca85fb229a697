/**
 * `/formchart try`: an example or a form file opened as a model's call opens
 * it, through the same tool, and the text and details that call returns
 * shown to the person; nothing goes to the model.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { formchartCompletions } from "../tools/commands.js";
import { readFormCall } from "../tools/engine/catalog.js";
import { exampleNames, MAX_FORM_FILE } from "../tools/form-files.js";
import { createFormchart } from "../tools/index.js";
import { detailsSummary } from "../tools/try.js";
import { runChildren } from "./helpers/child.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, noUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const started: Array<ReturnType<typeof fakePi>> = [];
afterEach(async () => {
  for (const pi of started.splice(0)) await pi.fire("session_shutdown", {});
});

function setup() {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir(), hostVersion: "1.6.0" })(pi.api);
  started.push(pi);
  return pi;
}

/** A UI that presses `keys` on the form it opens, answers a select with `pick`, and keeps every notice. */
function ui(keys: string[], pick?: (title: string, options: string[]) => string | undefined, cwd = process.cwd()) {
  const made = fakeUiContext((form) => {
    for (const key of keys) form.handleInput(key);
  });
  const selects: string[][] = [];
  const ctx = {
    ...made.ctx,
    cwd,
    ui: {
      ...made.ctx.ui,
      select: async (title: string, options: string[]) => {
        selects.push(options);
        return pick?.(title, options);
      },
    },
  };
  return { ctx, notices: made.notices, opened: made.opened, selects };
}

const SINGLE = {
  question: "Which database should the new service use?",
  options: [
    { label: "PostgreSQL", description: "Relational, battle-tested, what the other services use" },
    { label: "SQLite", description: "One file, no server; fine for a single instance" },
  ],
  allowOther: false,
};

describe("/formchart try", () => {
  it("opens an example as the model's call would and shows the text that call returns; nothing is sent", async () => {
    const pi = setup();
    const tried = ui(["2"]);
    await pi.commands.get("formchart")!.handler("try single", tried.ctx);
    // The same arguments called by the model, answered with the same key.
    const called = ui(["2"]);
    const result = await pi.tools.get("question")!.execute("call-1", SINGLE, undefined, undefined, called.ctx);
    const shown = tried.notices.at(-1)!;
    expect(tried.opened()).toBe(1);
    expect(shown).toContain("Tried single (question); nothing was sent to the model.");
    for (const line of result.content[0].text.split("\n")) expect(shown).toContain(`  ${line}`);
    expect(shown).toContain(`  details: ${detailsSummary(result.details)}`);
    expect(shown).toContain('answer: "SQLite"');
    expect(pi.sent).toEqual([]);
  });

  it("without an argument offers the examples to choose from, and Esc there tries nothing", async () => {
    const pi = setup();
    const chose = ui(["1"], (_title, options) => options.find((o) => o === "single"));
    await pi.commands.get("formchart")!.handler("try", chose.ctx);
    expect(chose.selects).toEqual([exampleNames()]);
    expect(chose.notices.at(-1)).toContain('answer: "PostgreSQL"');
    const none = ui([], () => undefined);
    await pi.commands.get("formchart")!.handler("try", none.ctx);
    expect(none.opened()).toBe(0);
    expect(none.notices.at(-1)).toBe("Nothing tried: no example was chosen.");
  });

  it("opens a form file relative to the working directory; a wait: false in it does not make a waiting question", async () => {
    const pi = setup();
    const dir = mkdtempSync(join(tmpdir(), "formchart-try-"));
    writeFileSync(join(dir, "form.json"), JSON.stringify({ tool: "question", arguments: { ...SINGLE, wait: false } }));
    const tried = ui([KEY.down, KEY.enter], undefined, dir);
    await pi.commands.get("formchart")!.handler("try form.json", tried.ctx);
    expect(tried.opened()).toBe(1);
    expect(tried.notices.at(-1)).toContain("  Q1: user selected: 2. SQLite");
    expect(pi.sent).toEqual([]);
  });

  it("a long answer fits a terminal: the heading first, at most 12 lines, and how many more the call returned", async () => {
    const pi = setup();
    const dir = mkdtempSync(join(tmpdir(), "formchart-try-"));
    const questions = Array.from({ length: 30 }, (_, i) => ({
      id: `q${i + 1}`,
      prompt: `Question ${i + 1}?`,
      options: [{ label: "Yes" }, { label: "No" }],
    }));
    writeFileSync(join(dir, "long.json"), JSON.stringify({ tool: "question", arguments: { questions } }));
    const tried = ui([...questions.map(() => "1"), KEY.enter], undefined, dir);
    await pi.commands.get("formchart")!.handler("try long.json", tried.ctx);
    const lines = tried.notices.at(-1)!.split("\n");
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines[0]).toBe("Tried long.json (question); nothing was sent to the model. Its call would have returned:");
    expect(lines[1]).toMatch(/^ {2}\S/);
    expect(lines.at(-2)).toMatch(/^ {2}… \d+ more lines$/);
    expect(lines.at(-1)).toMatch(/^ {2}details: .*outcome: "answered"$/);
    const more = Number(/(\d+) more/.exec(lines.at(-2)!)![1]);
    // Every line of the text (one a question) is either shown or counted.
    expect(lines.length - 3 + more).toBe(30);
  });

  it("names what it cannot open, cleaned; arguments that open no form show the error the model would get", async () => {
    const pi = setup();
    const missing = ui([]);
    await pi.commands.get("formchart")!.handler("try nope\x1b[2J", missing.ctx);
    expect(missing.notices.at(-1)).toMatch(/^No form file or example named "nope[^\x1b]*"\. Examples: .*single/);
    expect(missing.notices.at(-1)).not.toContain("\x1b");
    const dir = mkdtempSync(join(tmpdir(), "formchart-try-"));
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ tool: "question", arguments: { questions: [] } }));
    const bad = ui([], undefined, dir);
    await pi.commands.get("formchart")!.handler("try bad.json", bad.ctx);
    // What the model gets for arguments that open no form.
    expect(bad.opened()).toBe(0);
    expect(bad.notices.at(-1)).toContain("  Error (empty_questionnaire): questions:");
    writeFileSync(join(dir, "broken.json"), "{ not json");
    await pi.commands.get("formchart")!.handler("try broken.json", bad.ctx);
    expect(bad.notices.at(-1)).toMatch(/^\/formchart try: Cannot read a form from .*broken\.json: /);
  });

  it("where no one can answer, says what the model would get there (no_ui)", async () => {
    const pi = setup();
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as unknown as typeof process.stdout.write;
    try {
      await pi.commands.get("formchart")!.handler("try single", { ...noUiContext, cwd: process.cwd() });
    } finally {
      process.stdout.write = write;
    }
    expect(written.join("")).toContain("Error (no_ui)");
  });

  it("completes example names after try, and nothing once a name is whole", () => {
    expect(formchartCompletions("tr")?.map((c) => c.value)).toContain("try");
    expect(formchartCompletions("try si")).toEqual([{ value: "try single", label: "single" }]);
    expect(formchartCompletions("try input-")?.map((c) => c.label)).toEqual(
      exampleNames().filter((n) => n.startsWith("input-")),
    );
    expect(formchartCompletions("try single")).toBeNull();
    expect(formchartCompletions("try zzz")).toBeNull();
  });
});

describe("a form file is read only when it is a regular file of at most 1 MiB, else the reason is said", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "formchart-file-"));

  it("a FIFO and /dev/zero are refused at once, without reading them (each in a process of its own, killed if it hangs)", async () => {
    const fifo = join(dir(), "form.json");
    execFileSync("mkfifo", [fifo]);
    const read = (file: string) => `
      const { readFormCall } = await import("./tools/engine/catalog.ts");
      const started = performance.now();
      const read = readFormCall(${JSON.stringify(file)});
      console.log(JSON.stringify({ read, ms: performance.now() - started }));`;
    const runs = await runChildren([read(fifo), read("/dev/zero")], 20_000);
    const [toFifo, toZero] = runs.map((run) => {
      expect(run).toMatchObject({ finished: true, status: 0 });
      return JSON.parse(run.stdout) as { read: { ok: boolean; message: string }; ms: number };
    });
    expect(toFifo.read).toEqual({ ok: false, message: `${fifo} is a FIFO, not a regular file` });
    expect(toZero.read).toEqual({ ok: false, message: "/dev/zero is a device, not a regular file" });
    for (const run of [toFifo, toZero]) expect(run.ms).toBeLessThan(100);
  });

  it("a directory, and a file over the limit, are refused with the reason; /formchart try says it", async () => {
    const at = dir();
    mkdirSync(join(at, "forms.json"));
    expect(readFormCall(join(at, "forms.json"))).toEqual({
      ok: false,
      message: `${join(at, "forms.json")} is a directory, not a regular file`,
    });
    const large = join(at, "large.json");
    writeFileSync(large, "");
    truncateSync(large, 50 * 1024 * 1024);
    const started = performance.now();
    expect(readFormCall(large)).toEqual({
      ok: false,
      message: `${large} is 50.0 MiB; form files are read up to 1 MiB`,
    });
    expect(performance.now() - started).toBeLessThan(100);
    const pi = setup();
    const tried = ui([], undefined, at);
    await pi.commands.get("formchart")!.handler("try large.json", tried.ctx);
    expect(tried.notices.at(-1)).toBe(`/formchart try: ${large} is 50.0 MiB; form files are read up to 1 MiB`);
    expect(tried.opened()).toBe(0);
  });

  it("a file of exactly the limit is read; a byte-order mark is read as the JSON it marks", async () => {
    const at = dir();
    const form = JSON.stringify({ tool: "question", arguments: SINGLE });
    const full = join(at, "full.json");
    writeFileSync(full, form + " ".repeat(MAX_FORM_FILE - form.length));
    expect(readFormCall(full)).toMatchObject({ ok: true, tool: { name: "question" } });
    writeFileSync(join(at, "bom.json"), `\uFEFF${form}`);
    const pi = setup();
    const tried = ui([KEY.down, KEY.enter], undefined, at);
    await pi.commands.get("formchart")!.handler("try bom.json", tried.ctx);
    expect(tried.opened()).toBe(1);
    expect(tried.notices.at(-1)).toContain("  Q1: user selected: 2. SQLite");
  });

  it.each([
    [{ toString: 0 }, "an object"],
    [["question"], "an array"],
    [null, "null"],
    [7, "a number"],
  ])('"tool": %p names the field and what it must be', (tool, kind) => {
    const file = join(dir(), "tool.json");
    writeFileSync(file, JSON.stringify({ tool, arguments: SINGLE }));
    expect(readFormCall(file)).toEqual({
      ok: false,
      message: `${file}: "tool" must be a tool name (a string) such as "question"; got ${kind}`,
    });
  });
});
