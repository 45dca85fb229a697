/**
 * The script and style every review page uses, inlined or linked: page.css,
 * and client/ bundled by `npm run build` into dist/review-client.js (the
 * bundler is not there when Pi runs). The built file names the hash of its
 * sources, so a script older than its sources is refused, never shipped.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";

export const CLIENT_FILE = new URL("../../dist/review-client.js", import.meta.url);
const CLIENT_SOURCES = new URL("./client/", import.meta.url);

/** The hash of the script's sources (every `.ts` file of renderers/review/client/, by name), as the built file names it. */
export function clientSourcesHash(sources: URL = CLIENT_SOURCES): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(sources)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    hash.update(`${name}\u0000${readFileSync(new URL(name, sources), "utf8")}\u0000`);
  }
  return hash.digest("hex");
}

export function clientHeader(hash: string): string {
  return `/* The review page's script, bundled by npm run build from renderers/review/client/ (sources ${hash}). */`;
}

/** The built script (`file`), checked against its sources when they are there. */
export function builtClient(file: URL = CLIENT_FILE, sources: URL = CLIENT_SOURCES): string {
  if (!existsSync(file))
    throw new Error("dist/review-client.js is missing: run npm run build (it bundles renderers/review/client/)");
  const script = readFileSync(file, "utf8");
  if (existsSync(sources) && !script.startsWith(clientHeader(clientSourcesHash(sources))))
    throw new Error(
      "dist/review-client.js was built from other sources than renderers/review/client/: run npm run build",
    );
  return script;
}

export function reviewAssets(): { script: string; style: string } {
  return { script: builtClient(), style: readFileSync(new URL("./page.css", import.meta.url), "utf8") };
}
