/**
 * dist/ is what Pi loads; it must be built from the sources as they are.
 * The quick loop checks the hashes `npm run build` recorded in
 * dist/SOURCES.sha256 (a read of the sources, no build); CI's
 * `npm run build -- --check` compares a full build.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { changedSources, SOURCES_FILE, sourcesManifest } from "../scripts/dist-sources.js";
import { tempAgentDir } from "./helpers/temp.js";

const ROOT = join(import.meta.dirname ?? ".", "..");

describe("dist/", () => {
  it("was built from the sources as they are (else: npm run build)", () => {
    const manifest = join(ROOT, "dist", SOURCES_FILE);
    const changed = changedSources(ROOT, manifest);
    if (changed.length)
      throw new Error(
        `dist/ is stale: changed since the last npm run build: ${changed.join(", ")}. Run npm run build.`,
      );
    const listed = readFileSync(manifest, "utf8").split("\n");
    expect(listed.some((line) => line.endsWith("  tools/index.ts"))).toBe(true);
  });
});

describe("the record of dist/'s sources", () => {
  const project = () => {
    const root = tempAgentDir();
    mkdirSync(join(root, "tools"));
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "tools", "index.ts"), "export const a = 1;\n");
    writeFileSync(join(root, "tools", "other.ts"), "export const b = 2;\n");
    const manifest = join(root, "dist", SOURCES_FILE);
    writeFileSync(manifest, sourcesManifest(root, ["tools/other.ts", "tools/index.ts"]));
    return { root, manifest };
  };

  it("names nothing while the sources are as built", () => {
    const { root, manifest } = project();
    expect(changedSources(root, manifest)).toEqual([]);
  });

  it("names a source changed without a rebuild, and one removed", () => {
    const { root, manifest } = project();
    writeFileSync(join(root, "tools", "index.ts"), "export const a = 2;\n");
    rmSync(join(root, "tools", "other.ts"));
    expect(changedSources(root, manifest)).toEqual(["tools/index.ts", "tools/other.ts (removed)"]);
  });

  it("refuses a missing or garbled record, saying to build", () => {
    const { root, manifest } = project();
    writeFileSync(manifest, "not a hash  tools/index.ts\n");
    expect(() => changedSources(root, manifest)).toThrow(
      `${manifest}:1: not a "<sha256>  <path>" line: run npm run build`,
    );
    rmSync(manifest);
    expect(() => changedSources(root, manifest)).toThrow(`${manifest} is missing: run npm run build`);
  });
});
