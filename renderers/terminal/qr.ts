/**
 * A form's link as a QR code under the form, for a phone on the same
 * network: drawn only for a link another device can open (not loopback, not
 * the unspecified address), two modules a character cell (half blocks),
 * black on white whatever the theme, inside a quiet zone of two modules.
 * The encoder (uqr) is loaded when a code is first made, never with the
 * terminal view.
 */
import { BlockList, isIP } from "node:net";

/** The code's lines, each as wide as the code (its quiet zone included). */
export interface QrCode {
  readonly lines: readonly string[];
  readonly width: number;
}

/** Modules of light margin around the code: scanners read a margin of two off a screen. */
const QUIET = 2;

const nowhere = new BlockList();
nowhere.addSubnet("127.0.0.0", 8, "ipv4");
nowhere.addAddress("0.0.0.0", "ipv4");
nowhere.addAddress("::1", "ipv6");
nowhere.addAddress("::", "ipv6");

/** Whether another device can open `link`: its host is an address that is neither loopback nor unspecified. */
export function reachableElsewhere(link: string): boolean {
  let host: string;
  try {
    host = new URL(link).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    return false;
  }
  const family = isIP(host);
  if (family === 0) return !/^localhost\.?$/i.test(host) && host !== "";
  // An IPv4-mapped loopback (::ffff:127.0.0.1) is loopback too: BlockList reads it as IPv4.
  return !nowhere.check(host, family === 6 ? "ipv6" : "ipv4");
}

/** Black modules on white (the 256-colour cube's ends), whatever the theme; the terminal's own colours after. */
const paint = (cells: string) => `\x1b[38;5;16;48;5;231m${cells}\x1b[39;49m`;

/** The half block for a top and a bottom module: dark (true) is drawn, light is the white background. */
function cell(top: boolean, bottom: boolean): string {
  return top ? (bottom ? "█" : "▀") : bottom ? "▄" : " ";
}

/** The modules, dark true, as lines of half blocks with the quiet zone around. */
export function drawModules(modules: readonly (readonly boolean[])[]): QrCode {
  const size = modules.length + 2 * QUIET;
  const dark = (row: number, col: number) => modules[row - QUIET]?.[col - QUIET] === true;
  const lines: string[] = [];
  for (let row = 0; row < size; row += 2) {
    let cells = "";
    for (let col = 0; col < size; col++) cells += cell(dark(row, col), dark(row + 1, col));
    lines.push(paint(cells));
  }
  return { lines, width: size };
}

/** The code of `link` where another device can open it; none for loopback, or when the encoder cannot be had. */
export async function qrCode(link: string): Promise<QrCode | undefined> {
  if (!reachableElsewhere(link)) return undefined;
  try {
    const { encode } = await import("uqr");
    return drawModules(encode(link, { ecc: "L", border: 0 }).data);
  } catch {
    // The link in the help line still answers the form.
    return undefined;
  }
}

/** The code's lines at `width`, one column in where there is room; none when it would have to be cut or wrapped. */
export function qrLines(code: QrCode | undefined, width: number): string[] {
  if (!code || code.width > width) return [];
  const indent = code.width < width ? " " : "";
  return code.lines.map((line) => indent + line);
}
