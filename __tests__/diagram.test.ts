import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { createFormMachine } from "../machines/form.js";
import { normalizeForm } from "../machines/spec.js";
import { dotToSvg, formDiagram, renderDiagram } from "../renderers/graph.js";
import { ANY, describeMachine, toDot, toMermaid } from "../renderers/inspect/diagram.js";
import { runFormchart } from "../tools/commands.js";
import { showAndKeep } from "../tools/engine/run.js";
import { FormchartState } from "../tools/state.js";
import { fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

function spec(name: string) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.form.spec;
}

/** Transitions of the definition that change state, counted per target. */
function targetedTransitions(machine: AnyStateMachine): number {
  let count = 0;
  const visit = (node: AnyStateMachine["root"]) => {
    for (const defs of node.transitions.values()) for (const d of defs) count += d.target?.length ?? 0;
    for (const d of node.always ?? []) count += d.target?.length ?? 0;
    for (const child of Object.values(node.states)) visit(child as AnyStateMachine["root"]);
  };
  visit(machine.root);
  return count;
}

describe.each(exampleNames())("diagram of %s", (name) => {
  const s = spec(name);
  const machine = createFormMachine(s) as unknown as AnyStateMachine;
  const diagram = formDiagram(s);

  it("draws every state and every state-changing transition of the machine", () => {
    expect(diagram.edges).toHaveLength(targetedTransitions(machine));
    const ids = new Set(diagram.states.map((st) => st.id));
    for (const e of diagram.edges) {
      expect(e.from === ANY || ids.has(e.from)).toBe(true);
      expect(ids.has(e.to)).toBe(true);
    }
    expect(
      diagram.states
        .filter((st) => st.kind === "final")
        .map((st) => st.id)
        .sort(),
    ).toEqual(["cancelled", ...(s.declinable ? ["declined"] : []), "submitted", ...(s.timeoutMs ? ["timedOut"] : [])]);
    const mermaid = toMermaid(diagram);
    const dot = toDot(diagram);
    for (const st of diagram.states) {
      expect(mermaid).toContain(` as ${st.id}`);
      expect(dot).toContain(st.kind === "compound" ? `cluster_${st.id}` : `${st.id} [label=`);
    }
  });
});

describe("diagram details", () => {
  it("names guards with their parameters, delays in seconds, and the conditions of branches", () => {
    const branching = toMermaid(formDiagram(spec("branching")));
    expect(branching).toContain("q2 --> q3 : always [hiddenGoing(q2, forward)]");
    expect(branching).toContain('state "q2 · Split (shown when size gte 4)" as q2');
    expect(branching).toContain("review_reviewing --> submitted : CONFIRM [canSubmit]");
    expect(toMermaid(formDiagram(spec("throttled")))).toContain("waiting --> q1 : after 3s");
  });

  it("hostile labels cannot break the diagram languages", async () => {
    const evil = normalizeForm({
      questions: [
        { label: 'x" ]; a -> b [label="pwned', prompt: "p", options: [{ label: "A" }] },
        { label: "}{\n<b>", prompt: "q", options: [{ label: "B" }] },
      ],
    });
    const dot = toDot(
      describeMachine(createFormMachine(evil) as never, {
        labels: { q1: evil.questions[0].label, q2: evil.questions[1].label },
      }),
    );
    expect(dot).toContain('label="q1 · x a - b label= pwned";');
    expect(dot).not.toContain('[label="pwned');
    expect(dot).not.toMatch(/label="[^"]*\n/);
    const svg = await renderDiagram(evil, "svg");
    expect(svg).toMatch(/^<\?xml|^<svg/);
  });
});

describe("the statechart as a picture", () => {
  it("of a form of many questions is laid out in parts, one per question and one for the rest, with every state and no id twice", async () => {
    const form = normalizeForm({
      questions: Array.from({ length: 7 }, (_, i) => ({
        label: `Topic ${i + 1}`,
        prompt: `Question ${i + 1}?`,
        options: [{ label: "Yes" }, { label: "No" }],
      })),
    });
    const svg = await renderDiagram(form, "svg");
    const parts = [...svg.matchAll(/<g id="statechart-(\d+)-graph0"/g)].map((m) => Number(m[1]));
    expect(parts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const titles = new Set([...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]));
    for (const state of formDiagram(form).states.filter((st) => st.kind !== "compound"))
      expect(titles).toContain(state.id);
    // Where a question's keys lead into another part, a stand-in names it.
    expect(svg).toContain("→ q2 · Topic 2");
    const ids = [...svg.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it("says in one line what Graphviz refused, and lays out the next one", async () => {
    await expect(dotToSvg("digraph { a -> }")).rejects.toThrow(/^[^\n]*syntax error/i);
    await expect(dotToSvg("digraph { a -> b }")).resolves.toContain("<svg");
  }, 60_000);
});

describe("/formchart graph", () => {
  it("says when no form was shown, then writes the diagram of the last form", async () => {
    const state = new FormchartState(tempAgentDir());
    expect(await runFormchart("graph", state)).toMatchObject({ level: "warning" });
    const { ctx } = fakeUiContext((c) => c.handleInput("1"));
    await showAndKeep(state, ctx as never, { spec: spec("single") }, undefined);
    const reply = await runFormchart("graph mermaid", state);
    const file = /to (\S+)$/.exec(reply.text)?.[1] ?? "";
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toContain("stateDiagram-v2");
    expect((await runFormchart("graph png", state)).level).toBe("error");
  });
});

describe("npm run visualize -- --out", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "bin/visualize.ts", ...args], {
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
    });

  it("refuses a file it cannot write, says which it can, and writes nothing", () => {
    const dir = tempAgentDir();
    for (const [file, extra, message] of [
      ["chart.png", [], "Cannot write .png files: --out takes .svg, .dot, .gv, .mmd, .html"],
      ["chart", [], "has no extension"],
      ["chart.html", ["--format", "svg"], "--format svg does not go into a .html file"],
    ] as const) {
      const result = run("single", "--out", join(dir, file), ...extra);
      expect({ file, status: result.status, stdout: result.stdout }).toEqual({ file, status: 2, stdout: "" });
      expect(result.stderr).toContain(message);
      expect(existsSync(join(dir, file))).toBe(false);
    }
    const svg = run("single", "--out", join(dir, "chart.SVG"));
    expect(svg.status).toBe(0);
    expect(readFileSync(join(dir, "chart.SVG"), "utf8")).toMatch(/^<\?xml|^<svg/);
  }, 60_000);

  /** What a mistake must come to: exit 2, nothing on standard output, and a first line that is the reason, no stack. */
  const refused = (result: ReturnType<typeof run>) => ({
    status: result.status,
    stdout: result.stdout,
    reason: result.stderr.split("\n")[0],
    stack: /^\s+at /m.test(result.stderr),
  });

  it("refuses an --out it cannot write before building anything, in one line", () => {
    const dir = tempAgentDir();
    mkdirSync(join(dir, "folder.html"));
    for (const [args, reason] of [
      [["single", "--out", join(dir, "missing", "page.html")], `the folder ${join(dir, "missing")} does not exist`],
      [["single", "--out", join(dir, "folder.html")], "it is a folder"],
      [["--diff", "single", "multi", "--out", join(dir, "missing", "diff.html")], "does not exist"],
    ] as const) {
      const result = run(...args);
      expect(refused(result)).toEqual({
        status: 2,
        stdout: "",
        reason: expect.stringContaining(reason),
        stack: false,
      });
    }
    expect(existsSync(join(dir, "missing"))).toBe(false);
  }, 60_000);

  it("reports a write that fails after the build as one line, not a stack", () => {
    const dir = tempAgentDir();
    // A file that takes no bytes: every write to it fails (no space left on the device).
    symlinkSync("/dev/full", join(dir, "full.mmd"));
    expect(refused(run("single", "--out", join(dir, "full.mmd")))).toEqual({
      status: 2,
      stdout: "",
      reason: expect.stringMatching(/^visualize: .*ENOSPC/),
      stack: false,
    });
  }, 60_000);

  it("shows the control characters of a form file or an argument as pictures, never raw", () => {
    const dir = tempAgentDir();
    const file = join(dir, "hostile.json");
    writeFileSync(file, JSON.stringify({ tool: "\u001b]0;owned\u0007\u001b[2J\rquestion", arguments: {} }));
    const named = run(file);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('unknown tool "^[]0;owned^G^[[2J question"');
    const argument = run("single", "--format", "\u001b[2J\u0007");
    expect(argument.status).toBe(2);
    expect(argument.stderr).toContain('Unknown format "^[[2J^G"');
    // Nothing but line breaks between the lines it prints.
    for (const { stderr } of [named, argument]) expect(stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  }, 60_000);
});
