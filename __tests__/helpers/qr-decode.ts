/**
 * A QR code drawn in a terminal, read back as a phone's camera would see it:
 * half blocks turned into pixels and decoded by jsQR, a decoder of its own.
 */
import jsqr from "jsqr";

// jsqr is CommonJS whose types name its function `default`: Node's default import is the module, which has it too.
const jsQR = jsqr.default;

/** How renderers/terminal/qr.ts paints a code's cells. */
export const PAINT = "\x1b[38;5;16;48;5;231m";

/** The lines that are the code (the painted ones), each as its half blocks alone. */
export function codeCells(lines: readonly string[]): string[] {
  return lines
    .filter((l) => l.includes(PAINT))
    .map((l) => l.slice(l.indexOf(PAINT) + PAINT.length, l.indexOf("\x1b[39;49m")));
}

/**
 * What a phone's camera sees of `cells`: each cell two modules high, a
 * module 4 pixels, dark where a half block is drawn, light where the white
 * background shows (and where a screen's capture trimmed the line's end);
 * around it 4 modules of a dark terminal's background.
 */
export function decode(cells: readonly string[]): string | undefined {
  const SCALE = 4;
  const MARGIN = 4;
  const cols = Math.max(...cells.map((c) => [...c].length));
  const width = (cols + 2 * MARGIN) * SCALE;
  const height = (cells.length * 2 + 2 * MARGIN) * SCALE;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  const light = (moduleRow: number, moduleCol: number) => {
    for (let y = 0; y < SCALE; y++)
      for (let x = 0; x < SCALE; x++) {
        const at = (((moduleRow + MARGIN) * SCALE + y) * width + (moduleCol + MARGIN) * SCALE + x) * 4;
        pixels.fill(255, at, at + 3);
      }
  };
  const HALVES: Record<string, [boolean, boolean]> = {
    "█": [true, true],
    "▀": [true, false],
    "▄": [false, true],
    " ": [false, false],
  };
  for (const [row, line] of cells.entries())
    for (const [col, ch] of [...line.padEnd(cols)].entries()) {
      const [top, bottom] = HALVES[ch] ?? [false, false];
      if (!top) light(row * 2, col);
      if (!bottom) light(row * 2 + 1, col);
    }
  return jsQR(pixels, width, height, { inversionAttempts: "dontInvert" })?.data;
}
