/**
 * The editor a form's external-editor key runs is the one Pi's own key runs:
 * Pi 1.x's `externalEditor` setting (a trusted project's over the agent
 * directory's), then $VISUAL, $EDITOR, then nano (notepad on Windows);
 * Pi 0.x's $VISUAL or $EDITOR only.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Component } from "@earendil-works/pi-tui";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { plainText } from "../renderers/text.js";
import { plainTheme } from "../renderers/theme.js";
import { createFormchart } from "../tools/index.js";
import { type EditorSources, piEditorCommand } from "../tools/pi-editor.js";
import { K } from "./helpers/elicit.js";
import { fakeHost } from "./helpers/fake-host.js";
import { fakePi, type RegisteredTool } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

/** An agent directory and a project, each with the settings given (undefined: no file). */
function dirs(global?: unknown, project?: unknown) {
  const agentDir = tempAgentDir();
  const cwd = tempAgentDir();
  if (global !== undefined) writeFileSync(join(agentDir, "settings.json"), JSON.stringify(global));
  if (project !== undefined) {
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify(project));
  }
  return { agentDir, cwd };
}

const pick = (where: { agentDir: string; cwd: string }, more: Partial<EditorSources> = {}) =>
  piEditorCommand({ hostVersion: "1.6.0", projectTrusted: true, env: {}, platform: "linux", ...where, ...more });

describe("the editor command Pi would run", () => {
  it("is the agent directory's externalEditor before $VISUAL and $EDITOR", () => {
    expect(pick(dirs({ externalEditor: "code --wait" }), { env: { VISUAL: "vi", EDITOR: "ed" } })).toBe("code --wait");
  });

  it("is a trusted project's externalEditor before the agent directory's, never an untrusted one's", () => {
    const both = dirs({ externalEditor: "emacs" }, { externalEditor: "hx" });
    expect(pick(both)).toBe("hx");
    expect(pick(both, { projectTrusted: false })).toBe("emacs");
  });

  it("falls back to $VISUAL, $EDITOR, then nano (notepad on Windows) when no setting names a command", () => {
    const blank = dirs({ externalEditor: "  " }, { theme: "dark" });
    expect(pick(blank, { env: { VISUAL: "vi", EDITOR: "ed" } })).toBe("vi");
    expect(pick(blank, { env: { EDITOR: "ed" } })).toBe("ed");
    expect(pick(blank)).toBe("nano");
    expect(pick(blank, { platform: "win32" })).toBe("notepad");
  });

  it("skips a settings file that is not JSON, as Pi does", () => {
    const where = dirs();
    writeFileSync(join(where.agentDir, "settings.json"), "{ not json");
    expect(pick(where, { env: { EDITOR: "ed" } })).toBe("ed");
  });

  it("on Pi 0.x is $VISUAL or $EDITOR only: no setting, no fallback", () => {
    const set = dirs({ externalEditor: "code --wait" });
    expect(pick(set, { hostVersion: "0.73.1", env: { EDITOR: "ed" } })).toBe("ed");
    expect(pick(set, { hostVersion: "0.73.1" })).toBeUndefined();
  });
});

/** A UI whose `custom` builds the component with Pi's default keys (Ctrl+G for the editor) and hands it to `drive`. */
function uiContext(drive: (c: Component & { handleInput(data: string): void }) => Promise<void>) {
  return {
    hasUI: true,
    sessionManager: { getBranch: () => [] },
    ui: {
      custom: <T>(factory: (tui: unknown, theme: unknown, kb: unknown, done: (r: T) => void) => Component) =>
        new Promise<T>((resolve) => {
          void drive(
            factory(fakeHost(), plainTheme, undefined, resolve) as Component & { handleInput(d: string): void },
          );
        }),
      notify: () => {},
    },
  };
}

describe("the external-editor key of a form Pi opens", () => {
  let tool: RegisteredTool;
  const agentDir = tempAgentDir();
  /** A shell script used as the editor: it writes `text` into the file it is given. */
  const writes = (text: string) => {
    const path = join(agentDir, `${text.replace(/\W/g, "-")}.sh`);
    writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' '${text}' > "$1"\n`);
    chmodSync(path, 0o755);
    return path;
  };

  beforeAll(() => {
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ externalEditor: writes("from the setting") }));
    const pi = fakePi();
    createFormchart({ agentDir })(pi.api);
    tool = pi.tools.get("question")!;
  });

  it("runs Pi's externalEditor setting rather than $VISUAL", async () => {
    const saved = process.env.VISUAL;
    process.env.VISUAL = writes("from VISUAL");
    try {
      const ctx = uiContext(async (c) => {
        for (const k of ["\x1b[F", K.enter, "\x07"]) c.handleInput(k);
        const screen = () => c.render(80).map(plainText).join("\n");
        for (let i = 0; i < 200 && !/from (the setting|VISUAL)/.test(screen()); i++)
          await new Promise((r) => setTimeout(r, 10));
        c.handleInput(K.enter);
      });
      const args = { question: "Which cache?", options: [{ label: "Redis" }, { label: "None" }] };
      const result = await tool.execute("call-1", tool.prepareArguments!(args), undefined, undefined, {
        ...ctx,
        cwd: agentDir,
      });
      expect(result.content[0].text).toContain("user wrote: from the setting");
    } finally {
      if (saved === undefined) delete process.env.VISUAL;
      else process.env.VISUAL = saved;
    }
  });
});
