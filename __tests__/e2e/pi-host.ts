/**
 * Which real Pi the end-to-end tests run: jest runs the e2e folder once per
 * host (jest.config.js, one project each), and each project names its host
 * in the `PI_HOST` global.
 *
 * - `pi-1.6`: Pi 1.6 as it starts by default, full-screen;
 * - `pi-1.6-regular`: Pi 1.6 with `--tui-mode regular` (inline, the terminal keeps the mouse);
 * - `pi-0.73`: Pi 0.73.1, the last release under the `@mariozechner` names, on
 *   the machine's own Node when that is older than 22 (as its users run it).
 *
 * The binary is found from the installed package's own `bin` field, never from
 * a path written here.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export type HostName = "pi-1.6" | "pi-1.6-regular" | "pi-0.73";

export interface PiHost {
  name: HostName;
  /** The Pi package's version, as installed. */
  version: string;
  /** Pi 1.x: `@earendil-works/*`, tool exposure, `ctx.mode`, its own argument checker. */
  current: boolean;
  /** Pi draws full-screen and owns mouse reporting. */
  fullScreen: boolean;
  /** The command line that starts it, before Pi's own arguments. */
  command: string[];
}

const ROOT = resolve(import.meta.dirname ?? ".", "..", "..");

/** The installed package's CLI, from its manifest (Pi's packages export no package.json). */
function binOf(pkg: string): { cli: string; version: string } {
  const manifest = join(ROOT, "node_modules", pkg, "package.json");
  const json = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; bin: string | Record<string, string> };
  const bin = typeof json.bin === "string" ? json.bin : json.bin.pi;
  return { cli: join(dirname(manifest), bin), version: json.version };
}

function define(name: HostName): PiHost {
  if (name === "pi-0.73") {
    const { cli, version } = binOf("@mariozechner/pi-coding-agent");
    // scripts/with-node.sh names the machine's own Node; Pi 0.73 runs on Node 20 as well.
    const node = process.env.FORMCHART_SYSTEM_NODE || process.execPath;
    return { name, version, current: false, fullScreen: false, command: [node, cli] };
  }
  const { cli, version } = binOf("@earendil-works/pi-coding-agent");
  const regular = name === "pi-1.6-regular";
  return {
    name,
    version,
    current: true,
    fullScreen: !regular,
    command: [process.execPath, cli, ...(regular ? ["--tui-mode", "regular"] : [])],
  };
}

const chosen = (globalThis as { PI_HOST?: HostName }).PI_HOST ?? "pi-1.6";

/** The host of this test run. */
export const HOST: PiHost = define(chosen);
