/**
 * A throwaway Pi agent directory pointed at the scripted model, and the
 * command line that starts the real `pi` with this package loaded. Pi loads
 * the package's dist/, so the tests stop at once when a source changed since
 * the last build (the hashes dist/SOURCES.sha256 recorded: a read, where a
 * build costs seconds in every file on every host; `npm run build -- --check`
 * compares a full build).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedSources, SOURCES_FILE } from "../../scripts/dist-sources.js";
import { writePiHome } from "../../scripts/fake-model.js";
import { PROJECT_ROOT } from "../helpers/root.js";
import { HOST } from "./pi-host.js";

const changed = changedSources(PROJECT_ROOT, join(PROJECT_ROOT, "dist", SOURCES_FILE));
if (changed.length)
  throw new Error(`dist/ is stale: changed since the last build: ${changed.join(", ")}. Run npm run build.`);

export { PROJECT_ROOT };

export interface PiHome {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

/**
 * The files the agent directory starts with besides Pi's own: every tool
 * declared (`toolSet: "all"`), in print and JSON mode too (`declareWithoutUI`),
 * so a scripted model can call any tool by name and get its `no_ui` result;
 * tools-seen.e2e.test.ts checks the default set, with no settings file.
 */
export const EVERY_TOOL: Record<string, string> = {
  "pi-formchart/settings.json": JSON.stringify({ toolSet: "all", declareWithoutUI: true }),
};

export function makePiHome(baseUrl: string, files: Record<string, string> = EVERY_TOOL): PiHome {
  const dir = mkdtempSync(join(tmpdir(), "formchart-pi-"));
  const env = writePiHome(dir, baseUrl, files);
  return { dir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The host's `pi --no-session -e <project>` (or other extensions) plus extra
 * arguments, as argv; a run that names where its session goes
 * (`--session-dir`, `--session`) keeps it.
 */
export function piCommand(extra: string[] = [], extensions: string[] = [PROJECT_ROOT]): string[] {
  const keeps = extra.some((a) => a === "--session-dir" || a === "--session");
  return [...HOST.command, ...(keeps ? [] : ["--no-session"]), ...extensions.flatMap((e) => ["-e", e]), ...extra];
}
