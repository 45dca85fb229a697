/**
 * The layering of docs/architecture.md holds for every import in the
 * project, and the check really catches an import against it.
 */
import { describe, expect, it } from "@jest/globals";
import {
  checkImports,
  checkLayers,
  importCircles,
  importGraph,
  importsOf,
  loadedBy,
  projectSources,
  START_DOORS,
  START_ENTRY,
  startViolations,
  xstateInsides,
} from "../scripts/layers.js";

describe("layers", () => {
  it("no import in the project goes against the layering", () => {
    expect(checkLayers(".")).toEqual([]);
  });

  it.each([
    [
      "schemas/ importing the form model",
      "schemas/question.ts",
      'import { createFormMachine } from "../machines/form.js";',
    ],
    ["machines/ importing a renderer", "machines/form.ts", 'import { view } from "../renderers/terminal/view.js";'],
    ["machines/ importing pi-tui", "machines/spec.ts", 'import { visibleWidth } from "@earendil-works/pi-tui";'],
    [
      "renderers/ importing Pi's tool API",
      "renderers/terminal/view.ts",
      'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";',
    ],
    [
      "renderers/ importing tools/ lazily",
      "renderers/terminal/dialogs.ts",
      'const m = await import("../../tools/state.js");',
    ],
    [
      "the terminal view importing the review page",
      "renderers/terminal/view.ts",
      'import { reviewPage } from "../review/page.js";',
    ],
    [
      "a renderer importing the review page lazily",
      "renderers/terminal/dialogs.ts",
      'const { keyList } = await import("../review/keys.js");',
    ],
    [
      "what Pi loads at start importing the terminal view",
      "tools/register.ts",
      'import { FormComponent } from "../renderers/terminal/component.js";',
    ],
    [
      "what Pi loads at start importing the terminal view lazily",
      "tools/on-demand.ts",
      'const { runDialogs } = await import("../renderers/terminal/dialogs.js");',
    ],
    [
      "the review page's browser script importing the page's generator",
      "renderers/review/client/main.ts",
      'import { reviewModel } from "../model.js";',
    ],
    [
      "the review page's browser script importing Node",
      "renderers/review/client/main.ts",
      'import { readFileSync } from "node:fs";',
    ],
    ["the review page's browser script importing a package", "renderers/review/client/chart.ts", 'import "xstate";'],
    ["tools/ importing test code", "tools/state.ts", 'export { openForm } from "../__tests__/helpers/fake-host.js";'],
    [
      "the benchmark importing test code",
      "scripts/bench.ts",
      'import { replayPath } from "../__tests__/helpers/paths.js";',
    ],
  ])("catches %s", (_name, file, source) => {
    const violations = checkImports(file, importsOf(source));
    expect(violations).toHaveLength(1);
    expect(violations[0].file).toBe(file);
  });

  it("allows what the layering allows", () => {
    const source = [
      'import { Type } from "typebox";',
      'import { createFormMachine } from "../../machines/form.js";',
      'import { view } from "../../renderers/terminal/view.js";',
      'import { displayLine } from "../../renderers/text.js";',
      'import { readFileSync } from "node:fs";',
      'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";',
    ].join("\n");
    expect(checkImports("tools/engine/example.ts", importsOf(source))).toEqual([]);
    const start =
      'import { displayLine } from "../renderers/text.js";\nimport type { FormTheme } from "../renderers/theme.js";';
    expect(checkImports("tools/register.ts", importsOf(start))).toEqual([]);
  });

  it("lets the review page draw the terminal view's screens, and be imported by the tools", () => {
    const page = [
      'import { FormComponent } from "../terminal/component.js";',
      'import { keyList } from "./keys.js";',
      'import type { PageData } from "./client/data.js";',
      'import { readFileSync } from "node:fs";',
      'import xtermHeadless from "@xterm/headless";',
    ].join("\n");
    expect(checkImports("renderers/review/replay.ts", importsOf(page))).toEqual([]);
    const client = 'import type { PageData } from "./data.js";\nimport { el } from "./dom.js";';
    expect(checkImports("renderers/review/client/main.ts", importsOf(client))).toEqual([]);
    const tool = 'const { reviewPage } = await import("../renderers/review/page.js");';
    expect(checkImports("tools/commands.ts", importsOf(tool))).toEqual([]);
  });
});

describe("XState's insides", () => {
  const readers = (files: Map<string, string>) =>
    [...files].filter(([, source]) => xstateInsides(source).length > 0).map(([file]) => file);

  it("are read in one module of the inspector only", () => {
    expect(readers(projectSources("."))).toEqual(["renderers/inspect/xstate-private.ts"]);
  });

  it.each([
    ["a private read", "const leaf = snapshot._nodes.at(-1);"],
    ["a private field written in", "const system = { ...actor.system, _sendInspectionEvent: inspect };"],
    ["an action's assignment", "const update = action.assignment;"],
    ["a guard told apart", 'if ("check" in guard) return;'],
    ["a snapshot built by spreading", "return { ...snapshot, value };"],
    ["a machine's method replaced", "machine.transition = quick;"],
  ])("the check finds %s", (_, source) => {
    expect(readers(new Map([["renderers/review/replay.ts", source]]))).toEqual(["renderers/review/replay.ts"]);
  });

  it("lets a class's own fields and a comparison be", () => {
    const files = new Map([
      ["renderers/terminal/component.ts", "return this._focused;"],
      ["machines/form.ts", "if (machine.transition === other.transition) return;"],
      ["renderers/terminal/line-cache.ts", "const rows = memoizeOne((_picks: object, _width: number) => ({}));"],
    ]);
    expect(readers(files)).toEqual([]);
  });
});

describe("the inspector", () => {
  const project = projectSources(".");

  it("is loaded by nothing a form runs: the engine, the chart and the terminal view", () => {
    for (const entry of ["tools/engine/index.ts", "machines/form.ts", "renderers/terminal/component.ts"]) {
      const reached = [...loadedBy(project, entry)];
      expect(reached.length).toBeGreaterThan(3);
      expect(reached.filter((file) => file.startsWith("renderers/inspect/"))).toEqual([]);
    }
  });

  it("the check sees an import of it from the chart", () => {
    const files = new Map(project);
    files.set(
      "machines/form.ts",
      `${project.get("machines/form.ts")}\nimport { findRoutes } from "../renderers/inspect/paths.js";`,
    );
    expect([...loadedBy(files, "tools/engine/index.ts")]).toContain("renderers/inspect/paths.ts");
  });
});

describe("import circles", () => {
  it("there are none in the project, type-only imports included", () => {
    expect(importCircles(importGraph(projectSources(".")))).toEqual([]);
  });

  it("the check finds a circle of types across three files, and a file importing itself", () => {
    const files = new Map([
      ["machines/a.ts", 'import type { B } from "./b.js";'],
      ["machines/b.ts", 'import { c } from "./c.js";'],
      ["machines/c.ts", 'export type { A } from "./a.js";'],
      ["machines/d.ts", 'import { a } from "./a.js";\nimport { d } from "./d.js";'],
    ]);
    expect(importCircles(importGraph(files))).toEqual([
      ["machines/a.ts", "machines/b.ts", "machines/c.ts"],
      ["machines/d.ts"],
    ]);
  });
});

describe("what Pi loads at start", () => {
  const project = projectSources(".");

  it("reaches the engine and the review page only through the doors, as promises", () => {
    expect(startViolations(project)).toEqual([]);
    // The doors are what the start reaches on demand: the engine and the review page.
    expect(project.get(START_DOORS)).toMatch(/import\("\.\/engine\/index\.js"\)/);
  });

  it.each([
    [
      "a manifest importing the form model",
      "tools/question.ts",
      'import { normalizeForm } from "../machines/spec.js";',
    ],
    ["the registration importing the engine", "tools/register.ts", 'import { runTool } from "./engine/index.js";'],
    [
      "the settings loading the engine on their own",
      "tools/settings.ts",
      'const e = await import("./engine/index.js");',
    ],
    [
      "a schema importing the terminal view",
      "schemas/fields.ts",
      'import { view } from "../renderers/terminal/view.js";',
    ],
  ])("catches %s", (_name, file, line) => {
    const changed = new Map(project);
    changed.set(file, `${line}\n${project.get(file)}`);
    const violations = startViolations(changed);
    expect(violations).toHaveLength(1);
    expect(violations[0].file).toBe(file);
  });

  it("does not follow type-only imports, which are erased", () => {
    const changed = new Map(project);
    changed.set(START_ENTRY, `import type { FormSpec } from "../machines/spec.js";\n${project.get(START_ENTRY)}`);
    expect(startViolations(changed)).toEqual([]);
  });
});

describe("the two catalogs", () => {
  it("list the same tools in the same order, each the engine's on the manifest Pi registers", async () => {
    const { MANIFESTS } = await import("../tools/catalog.js");
    const { FORM_TOOLS } = await import("../tools/engine/catalog.js");
    expect(FORM_TOOLS.map((tool) => tool.name)).toEqual(MANIFESTS.map((manifest) => manifest.name));
    for (const [i, manifest] of MANIFESTS.entries())
      expect([manifest.name, FORM_TOOLS[i].description, FORM_TOOLS[i].parameters]).toEqual([
        manifest.name,
        manifest.description,
        manifest.parameters,
      ]);
  });
});
