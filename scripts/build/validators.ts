/**
 * Every tool schema compiled ahead of time: ajv's standalone code, looked up
 * by the hash of the schema's JSON, in place of schemas/precompiled.ts in the
 * bundle that holds it. Pi's start then never loads or runs ajv's compiler
 * for the project's own schemas.
 */
import { createHash } from "node:crypto";
import { relative, resolve } from "node:path";
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import type { Plugin } from "esbuild";
import { AJV_OPTIONS, schemasToPrecompile } from "../../schemas/validate.js";

/** The module the table stands in for, relative to the project. */
const PRECOMPILED = "schemas/precompiled.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface Validators {
  code: string;
  table: string;
}

/** ajv's standalone code for every schema a checker was made for, and the table that looks them up. */
export function validatorsModule(): Validators {
  // In the order of their JSON, not of the modules that made them: what else a process imported first changes nothing.
  const schemas = [...new Map(schemasToPrecompile().map((s) => [JSON.stringify(s), s]))]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => s);
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  schemas.forEach((schema, i) => {
    ajv.addSchema(schema, `schema${i}`);
  });
  const code = standalone.default(ajv, Object.fromEntries(schemas.map((_, i) => [`validate${i}`, `schema${i}`])));
  const entries = schemas.map((s, i) => `  [${JSON.stringify(sha256(JSON.stringify(s)))}, validate${i}]`);
  const table = [
    `import { createHash } from "node:crypto";`,
    `import { ${schemas.map((_, i) => `validate${i}`).join(", ")} } from "formchart:validators-code";`,
    `const compiled = new Map([\n${entries.join(",\n")},\n]);`,
    `export function precompiledValidator(schemaJson) {`,
    `  return compiled.get(createHash("sha256").update(schemaJson).digest("hex"));`,
    `}`,
    "",
  ].join("\n");
  return { code, table };
}

/** schemas/precompiled.ts replaced by the table, wherever a bundle imports it. */
export function validatorsPlugin(root: string, validators: Validators): Plugin {
  return {
    name: "validators",
    setup(b) {
      b.onResolve({ filter: /^formchart:validators-code$/ }, () => ({ path: "code", namespace: "validators" }));
      b.onResolve({ filter: /precompiled(\.js|\.ts)?$/ }, (args) => {
        const path = relative(root, resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")))
          .split("\\")
          .join("/");
        return path === PRECOMPILED ? { path: "table", namespace: "validators" } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: "validators" }, (args) => ({
        contents: args.path === "code" ? validators.code : validators.table,
        loader: "js",
        resolveDir: root,
      }));
    },
  };
}
