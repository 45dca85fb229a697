/**
 * What the model sees of this package in every request, read from the real
 * request pi sends (print mode, scripted model), and a tool it does not see
 * being found and used. By default (the compact set) only `question` is
 * declared: in Pi 1.x the other tools are deferred and found with Pi's
 * tool_search, which the package switches on; the total a request carries
 * stays within twice what Pi's own questionnaire example costs. In Pi 0.73
 * the chosen set is what is registered.
 */
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { RecordedRequest } from "../../scripts/fake-model.js";
import { toolResults } from "../../scripts/fake-model.js";
import { TOOL_SETS } from "../../tools/tool-sets.js";
import { PROJECT_ROOT } from "./pi-home.js";
import { HOST } from "./pi-host.js";
import { runPrintPi } from "./rpc.js";

/** Characters of the declarations and of the system message a request carries. */
function footprint(request: RecordedRequest): { tools: number; system: number; names: string[] } {
  const tools = request.tools ?? [];
  const system = request.messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
  return { tools: JSON.stringify(tools).length, system: system.length, names: tools.map((t) => t.function.name) };
}

/** The first request pi sends, with no settings file of this package unless `files` brings one (the default set). */
async function firstRequest(extensions: string[], files: Record<string, string> = {}) {
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
const setting = (toolSet: string) => ({ "pi-formchart/settings.json": JSON.stringify({ toolSet }) });

describe("what the model sees", () => {
  it("by default: question (and Pi's tool search), within twice Pi's questionnaire example", async () => {
    const bare = await firstRequest([]);
    const example = await firstRequest([EXAMPLE]);
    const ours = await firstRequest([PROJECT_ROOT]);
    const cost = (f: typeof bare) => f.tools + f.system - bare.tools - bare.system;
    expect(ours.names.filter((n) => !bare.names.includes(n))).toEqual(
      HOST.current ? ["question", "tool_search"] : ["question"],
    );
    expect(cost(ours)).toBeLessThanOrEqual(2 * cost(example));
  });

  it("the set chosen in the settings is what is declared", async () => {
    const bare = await firstRequest([]);
    for (const set of ["qwizard", "all"] as const) {
      const seen = await firstRequest([PROJECT_ROOT], setting(set));
      const search = HOST.current && set !== "all" ? ["tool_search"] : [];
      expect(seen.names.filter((n) => !bare.names.includes(n))).toEqual([...TOOL_SETS[set], ...search]);
    }
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
          { toolCalls: [{ name: "tool_search", arguments: { query: "question_branch follow-ups" } }] },
          { toolCalls: [{ name: "question_branch", arguments: branch }] },
          { text: "ok" },
        ],
        "ask",
        [],
        { files: {} },
      );
      expect(code).toBe(0);
      expect(model.requests[0].tools?.map((t) => t.function.name)).not.toContain("question_branch");
      expect(model.requests[1].tools?.map((t) => t.function.name)).toContain("question_branch");
      // Print mode has no one to ask: the tool itself ran and says so, in its own contract's words.
      const results = toolResults(model.requests[2]);
      expect(results[0]).toContain("- question_branch:");
      expect(results.at(-1)).toMatch(/interactive|UI|terminal/i);
    },
  );
});
