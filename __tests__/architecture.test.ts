/**
 * The layering of docs/architecture.md holds for every import in the
 * project, and the check really catches an import against it.
 */
import { describe, expect, it } from "@jest/globals";
import { checkImports, checkLayers, importCircles, importGraph, importsOf, projectSources } from "../scripts/layers.js";

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
    ["machines/ importing a renderer", "machines/form.ts", 'import { view } from "../renderers/view.js";'],
    ["machines/ importing pi-tui", "machines/spec.ts", 'import { visibleWidth } from "@earendil-works/pi-tui";'],
    [
      "renderers/ importing Pi's tool API",
      "renderers/view.ts",
      'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";',
    ],
    ["renderers/ importing tools/ lazily", "renderers/dialogs.ts", 'const m = await import("../tools/state.js");'],
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
      'import { createFormMachine } from "../machines/form.js";',
      'import { view } from "../renderers/view.js";',
      'import { readFileSync } from "node:fs";',
      'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";',
    ].join("\n");
    expect(checkImports("tools/example.ts", importsOf(source))).toEqual([]);
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
