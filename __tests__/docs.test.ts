/**
 * docs/api.md is the full reference: every tool, command and event the
 * extension registers with Pi has its place there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { createFormchart } from "../tools/index.js";
import { PROJECT_ROOT } from "./e2e/pi-home.js";
import { fakePi } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const api = readFileSync(join(PROJECT_ROOT, "docs", "api.md"), "utf8");
const pi = fakePi();
createFormchart({ agentDir: tempAgentDir() })(pi.api);
const headings = new Set([...api.matchAll(/^## `([^`]+)`$/gm)].map((m) => m[1]));
const eventsTable = api.slice(api.indexOf("## Events"));

describe("docs/api.md covers what is registered", () => {
  it.each([...pi.tools.keys()])("tool %s has a section", (name) => {
    expect(headings.has(name)).toBe(true);
  });

  it.each([...pi.commands.keys()])("command /%s has a section", (name) => {
    expect(headings.has(`/${name}`)).toBe(true);
  });

  it.each(pi.events())("event %s is in the Events table", (event) => {
    expect(eventsTable).toContain(`| \`${event}\` |`);
  });
});
