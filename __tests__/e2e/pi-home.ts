/**
 * A throwaway Pi agent directory pointed at the scripted model, and the
 * command line that starts the real `pi` with this package loaded. Pi loads
 * the package's dist/, so the tests stop at once when dist/ is not what the
 * sources make.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { buildDist, staleFiles } from "../../scripts/build.js";
import { HOST } from "./pi-host.js";

const { stale, extra } = staleFiles((await buildDist()).files);
if (stale.length || extra.length)
  throw new Error(`dist/ is not what the sources make (${[...stale, ...extra].join(", ")}): run npm run build`);

export const PROJECT_ROOT = resolve(import.meta.dirname ?? ".", "..", "..");

export interface PiHome {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

/**
 * The files the agent directory starts with besides Pi's own: every tool
 * declared (`toolSet: "all"`), so a scripted model can call any tool by name;
 * tools-seen.e2e.test.ts checks the default set, with no settings file.
 */
export const EVERY_TOOL: Record<string, string> = {
  "pi-formchart/settings.json": JSON.stringify({ toolSet: "all" }),
};

export function makePiHome(baseUrl: string, files: Record<string, string> = EVERY_TOOL): PiHome {
  const dir = mkdtempSync(join(tmpdir(), "formchart-pi-"));
  const models = {
    providers: {
      fake: {
        baseUrl,
        api: "openai-completions",
        apiKey: "x",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [
          {
            id: "fake-model",
            name: "Fake",
            reasoning: false,
            input: ["text"],
            contextWindow: 128000,
            maxTokens: 4096,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
  const settings = {
    defaultProvider: "fake",
    defaultModel: "fake-model",
    quietStartup: true,
    enableInstallTelemetry: false,
    retry: { enabled: false },
  };
  writeFileSync(join(dir, "models.json"), JSON.stringify(models));
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return {
    dir,
    env: { PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1" },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The host's `pi --no-session -e <project>` (or other extensions) plus extra arguments, as argv. */
export function piCommand(extra: string[] = [], extensions: string[] = [PROJECT_ROOT]): string[] {
  return [...HOST.command, "--no-session", ...extensions.flatMap((e) => ["-e", e]), ...extra];
}
