/**
 * What the model sees of this package in every request, read from the real
 * request pi sends (print mode, scripted model), and how it reaches the tools
 * it does not see. By default (the compact set) in Pi 1.x only `question` is
 * declared, with Pi's tool_search, which the package switches on; the other
 * tools are callable by name and tool_search declares the ones it finds; the
 * total a request carries stays within 1.6 times what Pi's own questionnaire
 * example costs, and every set within its target. Pi 0.73 declares what is registered: every tool unless the
 * settings name a set, and withdraw_question, which Pi 1.x leaves undeclared. `/formchart tools` gives what the request carries.
 * Print mode has no UI: without `declareWithoutUI` the request carries nothing of this package, so the
 * tests that measure the sets keep the tools with it.
 */
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { FOOTPRINT_TARGETS, seenOf } from "../../scripts/bench-footprint.js";
import type { RecordedRequest } from "../../scripts/fake-model.js";
import { toolResults } from "../../scripts/fake-model.js";
import { NESTED_CALL } from "../../tools/events.js";
import { TOOL_SETS } from "../../tools/tool-sets.js";
import { WITHDRAW_TOOL } from "../../tools/waiting.js";
import { PROJECT_ROOT } from "./pi-home.js";
import { HOST } from "./pi-host.js";
import { runPrintPi, startRpcPi } from "./rpc.js";

/** Characters of the declarations and of the system message a request carries, counted as `npm run bench` counts them. */
interface Footprint {
  tools: number;
  system: number;
  names: string[];
}

function footprint(request: RecordedRequest): Footprint {
  const seen = seenOf(request);
  const tools = seen.tools.reduce((sum, tool) => sum + tool.chars, 0);
  return { tools, system: seen.system, names: seen.tools.map((tool) => tool.name) };
}

/**
 * The settings file that keeps the tools declared in print mode (no UI), with
 * the set it names, if any (else the default set).
 */
const setting = (toolSet?: string) => ({
  "pi-formchart/settings.json": JSON.stringify({ ...(toolSet ? { toolSet } : {}), declareWithoutUI: true }),
});

/** The first request pi sends in print mode, the tools kept declared (`files` replaces that settings file). */
async function firstRequest(extensions: string[], files: Record<string, string> = setting()) {
  const { model } = await runPrintPi([{ text: "ok" }], "hi", [], { extensions, files });
  return footprint(model.requests[0]);
}

const EXAMPLE = join(
  PROJECT_ROOT,
  "node_modules",
  HOST.current ? "@earendil-works" : "@mariozechner",
  "pi-coding-agent",
  "examples",
  "extensions",
  "questionnaire.ts",
);

const cost = (seen: Footprint, bare: Footprint) => seen.tools + seen.system - bare.tools - bare.system;

describe("where no one can answer", () => {
  it("print and JSON mode: the request carries nothing of this package; declareWithoutUI keeps the set", async () => {
    const bare = await firstRequest([], {});
    for (const mode of [[], ["--mode", "json"]]) {
      const { model } = await runPrintPi([{ text: "ok" }], "hi", mode, { files: {} });
      const seen = footprint(model.requests[0]);
      // No form tool, withdraw_question or tool_search, and not one prompt line of ours.
      expect(seen).toEqual(bare);
    }
    const kept = await firstRequest([PROJECT_ROOT]);
    expect(kept.names).toContain("question");
    expect(kept.names).not.toEqual(bare.names);
  });

  it("RPC mode has dialogs: the default set is declared without the setting", async () => {
    const rpc = await startRpcPi([{ text: "ok" }], () => undefined, ["--mode", "rpc"], {});
    try {
      rpc.prompt("hi");
      await rpc.model.waitForRequests(1, 30000);
      const names = footprint(rpc.model.requests[0]).names;
      expect(names).toEqual(expect.arrayContaining(HOST.current ? ["question", "tool_search"] : [...TOOL_SETS.all]));
    } finally {
      await rpc.close();
    }
  });
});

describe("what the model sees", () => {
  it("by default: in Pi 1.x question (and Pi's tool search), within 1.6 times Pi's questionnaire example; in Pi 0.73 every tool", async () => {
    const bare = await firstRequest([]);
    const ours = await firstRequest([PROJECT_ROOT]);
    const added = ours.names.filter((n) => !bare.names.includes(n));
    if (!HOST.current) {
      expect(added).toEqual([...TOOL_SETS.all, WITHDRAW_TOOL]);
      return;
    }
    const example = await firstRequest([EXAMPLE]);
    expect(added).toEqual(["question", "tool_search"]);
    expect(cost(ours, bare)).toBeLessThanOrEqual(1.6 * cost(example, bare));
  });

  it("/formchart tools marks the set in force and gives what the request carries for it", async () => {
    const bare = await firstRequest([]);
    const named = HOST.current ? "qwizard" : "compact";
    const cases: Array<[Record<string, string>, string]> = [
      [setting(), HOST.current ? "compact" : "all"],
      [setting(named), named],
    ];
    for (const [files, set] of cases) {
      // The command runs first, then the prompt: its table and the request of the same Pi.
      const { model, output } = await runPrintPi([{ text: "ok" }], "hi", ["/formchart tools"], { files });
      const marked = /^● (\w+) +([\d,]+) chars/m.exec(output);
      expect(marked).not.toBeNull();
      const seen = footprint(model.requests[0]);
      expect({ set: marked![1], chars: Number(marked![2].replace(/,/g, "")) }).toEqual({
        set,
        chars: cost(seen, bare),
      });
    }
  });

  it("the set chosen in the settings is what is declared", async () => {
    const bare = await firstRequest([]);
    for (const set of ["compact", "qwizard", "all"] as const) {
      const seen = await firstRequest([PROJECT_ROOT], setting(set));
      // qwizard leaves two tools undeclared: their call shapes in one line cost less than Pi's tool_search.
      // Pi 0.73 cannot leave a registered tool undeclared: withdraw_question comes with every set.
      const more = HOST.current ? (set === "compact" ? ["tool_search"] : []) : [WITHDRAW_TOOL];
      expect(seen.names.filter((n) => !bare.names.includes(n))).toEqual([...TOOL_SETS[set], ...more]);
    }
  });

  it("every set costs a request at most half of what it did: all 7,000 characters, qwizard 4,700, compact 2,000", async () => {
    const bare = await firstRequest([]);
    expect(FOOTPRINT_TARGETS).toEqual({ compact: 2000, qwizard: 4700, all: 7000 });
    const costs: Record<string, number> = {};
    for (const set of Object.keys(FOOTPRINT_TARGETS))
      costs[set] = cost(await firstRequest([PROJECT_ROOT], setting(set)), bare);

    for (const [set, target] of Object.entries(FOOTPRINT_TARGETS))
      expect({ set, chars: Math.min(costs[set], target) }).toEqual({ set, chars: costs[set] });
  });

  (HOST.current ? it : it.skip)(
    "a tool that is not declared is found with tool_search, called, and answers",
    async () => {
      const branch = {
        questions: [
          { id: "go", prompt: "Deploy?", options: ["Yes", "No"] },
          { id: "where", prompt: "Where?", options: ["staging", "prod"], when: "go equals Yes" },
        ],
      };
      const { model, code } = await runPrintPi(
        [
          { toolCalls: [{ name: "tool_search", arguments: { query: "question_branch", limit: 1 } }] },
          { toolCalls: [{ name: "question_branch", arguments: branch }] },
          { toolCalls: [{ name: "questionnaire", arguments: { questions: [branch.questions[0]] } }] },
          { text: "ok" },
        ],
        "ask",
        [],
        { files: setting() },
      );
      expect(code).toBe(0);
      const declared = (i: number) => model.requests[i].tools?.map((t) => t.function.name);
      expect(declared(0)).not.toContain("question_branch");
      expect(declared(1)).toContain("question_branch");
      // The search loaded question_branch alone: questionnaire stays undeclared, and callable by name.
      expect(declared(2)).not.toContain("questionnaire");
      expect(declared(3)).not.toContain("questionnaire");
      // Print mode has no one to ask: the tools themselves ran and say so, in their own contract's words.
      const results = toolResults(model.requests[3]);
      expect(results[0]).toContain("- question_branch:");
      expect(results.slice(1)).toEqual([
        expect.stringMatching(/interactive|UI|terminal/i),
        expect.stringMatching(/interactive|UI|terminal/i),
      ]);
    },
  );

  (HOST.current ? it : it.skip)("a script cannot call a form tool through another tool (codemode)", async () => {
    const code =
      'return JSON.stringify(await tools.questionnaire({ questions: [{ id: "ship", prompt: "Ship?", options: ["Yes", "No"] }] }));';
    // The default set: questionnaire is deferred, which codemode scripts could call if nothing stopped them.
    const script = [{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "ok" }];
    const { model } = await runPrintPi(script, "go", ["--tools", "+codemode"], { files: setting() });
    expect(toolResults(model.requests[1]).join("\n")).toContain(NESTED_CALL);
  });
});
