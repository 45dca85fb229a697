/**
 * When the model gets no form tool: where no one can answer (print and JSON
 * mode, unless the settings keep them; RPC keeps them), and in the `none`
 * set; and the person's own prompt lines in place of the tools' rules.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { TOOL_NAMES } from "../tools/catalog.js";
import { createFormchart } from "../tools/index.js";
import { WAIT_LINE } from "../tools/manifest.js";
import { readSettings, settingsPath } from "../tools/settings.js";
import { fakePi, noUiContext, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const OURS = [...TOOL_NAMES, "withdraw_question", "tool_search"];
const started: Array<ReturnType<typeof fakePi>> = [];
// A session with a UI warms the engine up a moment later, unless it ends first.
afterEach(async () => {
  for (const pi of started.splice(0)) await pi.fire("session_shutdown", {});
});

function setup(settings: object | undefined, hostVersion = "1.6.0") {
  const dir = tempAgentDir();
  if (settings) {
    mkdirSync(dirname(settingsPath(dir)), { recursive: true });
    writeFileSync(settingsPath(dir), JSON.stringify(settings));
  }
  const pi = fakePi();
  createFormchart({ agentDir: dir, hostVersion })(pi.api);
  started.push(pi);
  return { ...pi, dir };
}

const ours = (names: string[]) => names.filter((name) => OURS.includes(name));
const guidelines = (pi: ReturnType<typeof setup>, name: string) =>
  (pi.tools.get(name) as unknown as { promptGuidelines?: string[] }).promptGuidelines ?? [];

async function tools(pi: ReturnType<typeof setup>, args = "") {
  const notices: string[] = [];
  const ctx = { hasUI: true, ui: { notify: (text: string) => notices.push(text) } };
  await pi.commands.get("formchart")!.handler(`tools ${args}`.trim(), ctx);
  return notices.at(-1)!;
}

const chars = (table: string, name: string) =>
  Number(new RegExp(`[●○] ${name} +([\\d,]+) chars`).exec(table)![1].replace(/,/g, ""));

describe("no form tools where no one can answer", () => {
  it.each(["1.6.0", "0.73.1"])(
    "Pi %s in print or JSON mode: no form tool, withdraw_question or tool_search",
    async (v) => {
      const pi = setup(undefined, v);
      await pi.fire("session_start", {}, noUiContext);
      expect(ours(pi.active())).toEqual([]);
      expect(pi.active()).toEqual(expect.arrayContaining(["read", "bash"]));
      expect(await tools(pi)).toContain("No one can answer here (no UI): no form tool is declared");
    },
  );

  it.each(["1.6.0", "0.73.1"])("Pi %s: declareWithoutUI keeps the set without a UI", async (v) => {
    const pi = setup({ declareWithoutUI: true }, v);
    await pi.fire("session_start", {}, noUiContext);
    expect(pi.declared()).toContain("question");
    expect(await tools(pi)).not.toContain("No one can answer here");
    expect(readSettings(settingsPath(pi.dir)).settings.declareWithoutUI).toBe(true);
  });

  it("RPC has dialogs: it keeps the tools", async () => {
    const pi = setup(undefined);
    await pi.fire("session_start", {}, rpcContext([]).ctx);
    expect(ours(pi.declared())).toEqual(["question", "tool_search"]);
    expect(ours(pi.active())).toEqual(expect.arrayContaining(OURS));
  });
});

describe("the none set", () => {
  it("costs nothing, leaves every form tool out while Pi runs, and the set chosen after brings them back", async () => {
    const pi = setup(undefined);
    await pi.fire("session_start", {}, rpcContext([]).ctx);
    const table = await tools(pi);
    expect(table).toMatch(/○ none +0 chars {2}\(none\)\n/);
    const none = await tools(pi, "none");
    expect(none).toMatch(/● none +0 chars/);
    expect(none).toContain("No form tool is declared or callable.");
    expect(none).toContain("Prompt lines: the tools' own, 0 chars of the set in force");
    expect(ours(pi.active())).toEqual([]);
    expect(readSettings(settingsPath(pi.dir)).settings.toolSet).toBe("none");
    await tools(pi, "compact");
    expect(ours(pi.declared())).toEqual(["question", "tool_search"]);
    expect(ours(pi.active())).toEqual(expect.arrayContaining(OURS));
  });

  it("Pi 0.73 named none registers no form tool and leaves withdraw_question out of the requests", async () => {
    const pi = setup({ toolSet: "none" }, "0.73.1");
    expect([...pi.tools.keys()]).toEqual(["withdraw_question"]);
    await pi.fire("session_start", {}, rpcContext([]).ctx);
    expect(ours(pi.active())).toEqual([]);
    expect(chars(await tools(pi), "none")).toBe(0);
  });
});

describe("the person's prompt lines", () => {
  it("replace the tools' rules and the wait line; the line naming the undeclared tools stays; the cost says so", async () => {
    const own = setup(undefined);
    const mine = setup({ promptLines: ["Ask only when stuck."], toolSet: "qwizard" });
    const none = setup({ promptLines: [], toolSet: "qwizard" });
    for (const pi of [own, mine, none]) await pi.fire("session_start", {}, rpcContext([]).ctx);
    expect(guidelines(own, "question")).toContain(WAIT_LINE);
    const [first, ...rest] = guidelines(mine, "question");
    expect(first).toBe("Ask only when stuck.");
    expect(rest.join("\n")).toMatch(/question_branch|ask_form/);
    expect(rest).not.toContain(WAIT_LINE);
    expect(guidelines(mine, "questionnaire")).toEqual([]);
    expect(guidelines(none, "question")).toEqual(rest);
    const [ownTable, mineTable, noneTable] = [await tools(own), await tools(mine), await tools(none)];
    const mineChars = "- Ask only when stuck.\n".length;
    expect(mineTable).toContain(`Prompt lines: your own (promptLines), ${mineChars} chars of the set in force`);
    expect(noneTable).toMatch(/Prompt lines: none \(promptLines is empty\), 0 chars/);
    expect(ownTable).toMatch(/Prompt lines: the tools' own, [1-9][\d,]* chars/);
    expect(chars(noneTable, "qwizard")).toBeLessThan(chars(mineTable, "qwizard"));
    expect(chars(mineTable, "qwizard")).toBeLessThan(chars(ownTable, "qwizard"));
  });

  it("a list that is not of one-line strings falls back to the tools' own", () => {
    const pi = setup({ promptLines: ["two\nlines"] });
    expect(guidelines(pi, "question")).toContain(WAIT_LINE);
    expect(readSettings(settingsPath(pi.dir)).settings.promptLines).toBeUndefined();
  });
});
