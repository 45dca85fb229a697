/**
 * The editor command Pi's own external-editor key runs, picked the way the
 * host picks it. Pi 1.x: its `externalEditor` setting (the project's
 * `.pi/settings.json` over the agent directory's `settings.json`, the
 * project's only in a trusted project), then `$VISUAL`, then `$EDITOR`, then
 * `notepad` on Windows and `nano` elsewhere. Pi 0.x has no such setting and
 * no fallback: `$VISUAL`, then `$EDITOR`, else none.
 */
import { join } from "node:path";
import { readJsonObject } from "./settings.js";

export interface EditorSources {
  hostVersion: string | undefined;
  /** Pi's agent directory (`~/.pi/agent`, or `PI_CODING_AGENT_DIR`). */
  agentDir: string;
  /** The session's working directory: its `.pi/settings.json` is the project's. */
  cwd: string;
  /** Whether Pi reads the project's settings (a trusted project). */
  projectTrusted: boolean;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

function configured(file: string): string | undefined {
  const value = readJsonObject(file).stored.externalEditor;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

export function piEditorCommand(sources: EditorSources): string | undefined {
  const { env = process.env, platform = process.platform } = sources;
  const fromEnv = env.VISUAL || env.EDITOR || undefined;
  const major = Number.parseInt(sources.hostVersion ?? "0", 10);
  if (!(major >= 1)) return fromEnv;
  const project = sources.projectTrusted ? configured(join(sources.cwd, ".pi", "settings.json")) : undefined;
  return (
    project ??
    configured(join(sources.agentDir, "settings.json")) ??
    fromEnv ??
    (platform === "win32" ? "notepad" : "nano")
  );
}
