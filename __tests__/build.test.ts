/**
 * What Pi loads is what the sources say. scripts/build.ts makes dist/ (an
 * entry Pi's loader reads, a registration bundle, an engine loaded on first
 * use, the tool schemas compiled ahead of time); here a fresh build is loaded
 * the way that entry loads it, with Pi's packages handed in, and compared
 * with the sources: the same tools, texts and schemas registered, the same
 * answers to bad arguments (the precompiled validators against ajv at run
 * time), the same frames and results for every example, and a registration
 * that holds none of the engine until a form needs it.
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import * as piAi from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";
import * as piTui from "@earendil-works/pi-tui";
import { afterAll, describe, expect, it } from "@jest/globals";
import * as typebox from "typebox";
import { EXAMPLES_DIR, exampleNames } from "../bin/form-file.js";
import { schemasToPrecompile } from "../schemas/validate.js";
import { API_ENTRY, apiExports, buildDist, ENTRY } from "../scripts/build.js";
import { createFormchart } from "../tools/index.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const ROOT = join(import.meta.dirname ?? ".", "..");
// Inside the project, so that the bundle's own requires (ajv's runtime, re2js) resolve as from dist/.
// Its real path: Node keys the modules it loaded by theirs, and node_modules may be a link.
mkdirSync(join(ROOT, "node_modules", ".cache"), { recursive: true });
const DIR = join(realpathSync(join(ROOT, "node_modules", ".cache")), `formchart-build-test-${process.pid}`);
const { files, inputs } = await buildDist();
mkdirSync(DIR, { recursive: true });
for (const [name, content] of files) {
  mkdirSync(dirname(join(DIR, name)), { recursive: true });
  writeFileSync(join(DIR, name), content);
}
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const HOST: Record<string, unknown> = {
  "@earendil-works/pi-ai": piAi,
  "@earendil-works/pi-coding-agent": piCodingAgent,
  "@earendil-works/pi-tui": piTui,
  typebox,
};
const require = createRequire(import.meta.url);
const host = (id: string) => {
  if (!(id in HOST)) throw new Error(`the bundle asked for ${id}, which this test does not hand over`);
  return HOST[id];
};
const bundle = require(join(DIR, "formchart.cjs"))(host) as { createFormchart: typeof createFormchart };
const engineFile = join(DIR, "engine.cjs");

/** The sources and the bundle, each registered with a fake Pi of its own. */
function both() {
  const sources = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(sources.api);
  const built = fakePi();
  bundle.createFormchart({ agentDir: tempAgentDir() })(built.api);
  return { sources, built };
}

/** Pi 1.x, and the last Pi under the older package names: the built entry loads in both. */
const PI_1 = "@earendil-works/pi-coding-agent";
const PI_073 = "@mariozechner/pi-coding-agent";

/**
 * Pi's own loader loading the built entry in a process of its own, with
 * `tmp` as the temporary directory: the names of the tools it registered.
 */
function loadWithPi(tmp: string, pi = PI_1): string[] {
  const loader = pathToFileURL(join(ROOT, "node_modules", pi, "dist", "core", "extensions", "loader.js")).href;
  const script = `const { loadExtensions } = await import(${JSON.stringify(loader)});
const result = await loadExtensions([${JSON.stringify(join(DIR, ENTRY))}], ${JSON.stringify(ROOT)});
if (result.errors.length) throw new Error(JSON.stringify(result.errors));
await new Promise((resolve) => setTimeout(resolve, 100));
console.log(JSON.stringify([...result.extensions[0].tools.keys()]));`;
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, PI_CODING_AGENT_DIR: join(tmp, "agent") };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

describe("the build", () => {
  it("registers without loading the engine, and loads it for the first form", async () => {
    const { built } = both();
    expect(require.cache[engineFile]).toBeUndefined();
    const { ctx } = fakeUiContext((form) => form.handleInput(KEY.esc));
    await built.tools
      .get("question")!
      .execute("1", { questions: [{ prompt: "P", options: [{ label: "A" }] }] }, undefined, undefined, ctx);
    expect(require.cache[engineFile]).toBeDefined();
  });

  it("loads through Pi's loader, keeps a code cache after the first start, and survives a broken one", () => {
    const tmp = mkdtempSync(join(DIR, "tmp-"));
    const expected = [...both().sources.tools.keys()];
    expect(loadWithPi(tmp)).toEqual(expected);
    const dir = readdirSync(tmp).find((f) => f.startsWith("pi-formchart-"))!;
    expect(dir).toBeDefined();
    // Pi 0.73's loader knows only the older names; with no set named in the settings, every tool is registered there too.
    expect(loadWithPi(mkdtempSync(join(DIR, "tmp-")), PI_073)).toEqual(expected);
    const [cache] = readdirSync(join(tmp, dir));
    const path = join(tmp, dir, cache);
    const made = readFileSync(path);
    expect(made.length).toBeGreaterThan(1000);
    const writtenAt = statSync(path).mtimeMs;
    // A valid cache is used as it is, not written again.
    expect(loadWithPi(tmp)).toEqual(expected);
    expect(statSync(path).mtimeMs).toBe(writtenAt);
    // A cache V8 refuses is compiled around, then replaced.
    writeFileSync(path, Buffer.alloc(made.length, 7));
    expect(loadWithPi(tmp)).toEqual(expected);
    expect(readFileSync(path).equals(Buffer.alloc(made.length, 7))).toBe(false);
  }, 60_000);

  it("gives another extension's import of the package every value tools/api.ts exports, from the registration bundle", async () => {
    const sources = await import("../tools/api.js");
    const values = Object.keys(sources).sort();
    expect(apiExports()).toEqual(values);
    const entry = files.get(ENTRY)!;
    const built = bundle as unknown as Record<string, unknown>;
    for (const name of values) {
      expect([name, entry.includes(`export const ${name} = entry.${name};`)]).toEqual([name, true]);
      expect([name, typeof built[name]]).toEqual([name, typeof (sources as Record<string, unknown>)[name]]);
    }
    // The API's entry hands on the extension entry's values: one loader of the bundle, through Pi's loader.
    expect(files.get(API_ENTRY)).toContain(`export { ${values.join(", ")} } from "./pi-formchart/index.ts";`);
  });

  it("keeps the engine out of the registration bundle", () => {
    const holds = (bundle: string, module: string) => inputs.get(bundle)!.some((input) => input.includes(module));
    for (const module of [
      "node_modules/xstate/",
      "machines/form.ts",
      "renderers/terminal/component.ts",
      "renderers/terminal/view.ts",
    ]) {
      expect([module, holds("formchart.cjs", module)]).toEqual([module, false]);
      expect([module, holds("engine.cjs", module)]).toEqual([module, true]);
    }
    expect(holds("formchart.cjs", "tools/question.ts")).toBe(true);
  });

  it("holds every module in one bundle only, and Pi's start no xstate, ajv, checks or engine", () => {
    const bundles = [...inputs.keys()];
    expect(bundles).toEqual(["formchart.cjs", "engine.cjs", "review.cjs"]);
    for (const [i, a] of bundles.entries())
      for (const b of bundles.slice(i + 1)) {
        const twice = inputs.get(a)!.filter((input) => inputs.get(b)!.includes(input));
        expect([a, b, twice]).toEqual([a, b, []]);
      }
    const start = inputs.get("formchart.cjs")!;
    for (const what of [
      "node_modules/xstate/",
      "node_modules/ajv",
      "node_modules/@xstate/",
      "machines/",
      "tools/engine/",
    ])
      expect([what, start.filter((input) => input.includes(what))]).toEqual([what, []]);
    // Pi's start declares the tools; every check (ajv's validators, the rules, the folds' error names, RE2) is the engine's.
    expect(start.filter((input) => input.startsWith("schemas/"))).toEqual([
      "schemas/aliases.ts",
      "schemas/ask-form.ts",
      "schemas/conditions.ts",
      "schemas/elicit-types.ts",
      "schemas/fields.ts",
      "schemas/lenient.ts",
      "schemas/question.ts",
      "schemas/qwizard.ts",
      "schemas/rich.ts",
    ]);
    // The review page takes the statechart from the engine's file, not a copy of its own.
    expect(inputs.get("review.cjs")!.filter((input) => input.includes("node_modules/xstate/"))).toEqual([]);
    expect(files.get("review.cjs")).toContain('__bundle("engine")');
  });

  it("registers the same tools, texts, schemas and commands as the sources", () => {
    const { sources, built } = both();
    expect([...built.tools.keys()]).toEqual([...sources.tools.keys()]);
    expect([...built.commands.keys()]).toEqual([...sources.commands.keys()]);
    for (const [name, tool] of sources.tools) {
      const other = built.tools.get(name)!;
      for (const field of ["label", "description", "promptSnippet", "promptGuidelines", "parameters", "executionMode"])
        expect([name, field, (other as never)[field]]).toEqual([name, field, (tool as never)[field]]);
    }
  });

  it("compiles every tool schema ahead of time", () => {
    const engine = require(engineFile)(host) as { precompiledValidator(json: string): unknown };
    const schemas = schemasToPrecompile();
    expect(schemas.length).toBeGreaterThanOrEqual(6);
    for (const schema of schemas) expect(typeof engine.precompiledValidator(JSON.stringify(schema))).toBe("function");
    expect(engine.precompiledValidator(JSON.stringify({ type: "string" }))).toBeUndefined();
  });

  const long = "x".repeat(20_000);
  const bad: Array<[string, unknown]> = [
    ["nothing", {}],
    ["null", null],
    ["wrong types", { questions: [{ prompt: 42, options: "A" }], question: 7 }],
    ["empty lists", { questions: [], options: [] }],
    [
      "too long",
      { questions: [{ prompt: long, options: [{ label: long }] }], question: long, options: [{ label: "A" }] },
    ],
    ["unknown fields", { questions: [{ prompt: "P", options: [{ label: "A", colour: "red" }], extra: 1 }], extra: 2 }],
    [
      "empty strings",
      { questions: [{ prompt: "", options: [{ label: "" }] }], question: "", options: [{ label: "" }] },
    ],
    [
      "too many questions",
      { questions: Array.from({ length: 60 }, (_, i) => ({ prompt: `P${i}`, options: [{ label: "A" }] })) },
    ],
    ["duplicate labels", { questions: [{ prompt: "P", options: [{ label: "A" }, { label: "a" }] }] }],
  ];
  for (const [what, args] of bad) {
    it(`refuses ${what} with the same text and details`, async () => {
      const { sources, built } = both();
      const { ctx } = fakeUiContext((form) => form.handleInput(KEY.esc));
      for (const [name, tool] of sources.tools) {
        const prepare = (t: typeof tool, raw: unknown) => (t.prepareArguments ? t.prepareArguments(raw) : raw);
        const expected = await tool.execute("1", prepare(tool, args), undefined, undefined, ctx);
        const other = built.tools.get(name)!;
        const actual = await other.execute("1", prepare(other, args), undefined, undefined, ctx);
        expect([name, actual]).toEqual([name, expected]);
      }
    });
  }

  it.each(exampleNames())("shows and answers example %s as the sources do", async (example) => {
    const content = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${example}.json`), "utf8"));
    const wrapped = content && typeof content === "object" && "tool" in content;
    const name: string = wrapped ? content.tool : "question";
    const raw: unknown = wrapped ? content.arguments : content;
    const run = async (pi: ReturnType<typeof fakePi>) => {
      const frames: (readonly string[])[] = [];
      const { ctx } = fakeUiContext((form) => {
        frames.push(form.render(90));
        for (const key of [KEY.down, KEY.space, KEY.tab, KEY.down, KEY.enter]) {
          form.handleInput(key);
          frames.push(form.render(90));
        }
        form.handleInput(KEY.esc);
        form.handleInput(KEY.esc);
      });
      const tool = pi.tools.get(name)!;
      const result = await tool.execute(
        "1",
        tool.prepareArguments ? tool.prepareArguments(raw) : raw,
        undefined,
        undefined,
        ctx,
      );
      return { frames, result, entries: pi.entries };
    };
    const { sources, built } = both();
    const expected = await run(sources);
    expect(expected.frames.length).toBeGreaterThan(0);
    expect(await run(built)).toEqual(expected);
  });
});
