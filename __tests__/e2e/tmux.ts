/**
 * A terminal for end-to-end tests: one tmux server on a private socket per
 * session, keys sent with `send-keys`, the screen read with `capture-pane`.
 */
import { execFileSync } from "node:child_process";

export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export class Terminal {
  private readonly socket: string;

  constructor(
    readonly name: string,
    readonly width = 100,
    readonly height = 32,
  ) {
    this.socket = `formchart-${process.pid}-${name}`;
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  start(command: string[], env: Record<string, string>, cwd: string): void {
    const quoted = command.map((c) => `'${c.replace(/'/g, "'\\''")}'`).join(" ");
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    this.tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      this.name,
      "-x",
      String(this.width),
      "-y",
      String(this.height),
      `cd '${cwd}' && env ${exports} ${quoted}`,
    );
  }

  /** Named keys as tmux knows them: Enter, Escape, Down, Tab, BTab … */
  press(...keys: string[]): void {
    for (const key of keys) this.tmux("send-keys", "-t", this.name, key);
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", this.name, "-l", text);
  }

  /** A pane flag tmux keeps for the program in it (`mouse_any_flag`: the program asked for mouse reports). */
  flag(name: string): string {
    return this.tmux("display-message", "-p", "-t", this.name, `#{${name}}`).trim();
  }

  /** A left click on the first place the screen shows `text`, as an SGR mouse report (press and release). */
  click(text: string): void {
    const lines = this.screen().split("\n");
    const row = lines.findIndex((l) => l.includes(text));
    if (row < 0) throw new Error(`"${text}" is not on the screen:\n${lines.join("\n")}`);
    const col = [...lines[row].slice(0, lines[row].indexOf(text))].length;
    this.type(`\x1b[<0;${col + 1};${row + 1}M`);
    this.type(`\x1b[<0;${col + 1};${row + 1}m`);
  }

  /** From now on, append every byte the program writes to `file` (before tmux reads it: sequences tmux drops are kept). */
  record(file: string): void {
    this.tmux("pipe-pane", "-o", "-t", this.name, `cat >> '${file.replace(/'/g, "'\\''")}'`);
  }

  resize(width: number, height: number): void {
    this.tmux("resize-window", "-t", this.name, "-x", String(width), "-y", String(height));
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", this.name);
  }

  async waitFor(pattern: RegExp | string | ((screen: string) => boolean), timeoutMs = 20000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      try {
        last = this.screen();
      } catch {
        last = "(terminal gone)";
      }
      const seen =
        typeof pattern === "string"
          ? last.includes(pattern)
          : typeof pattern === "function"
            ? pattern(last)
            : pattern.test(last);
      if (seen) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`Timed out waiting for ${pattern}. Screen:\n${last}`);
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}
