/**
 * What Debian's default monospace font can draw, as fontconfig reads it:
 * a glyph a terminal font lacks shows as a box, whatever the code meant.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const DEJAVU_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

/** Where the font is not installed there is nothing to look the glyphs up in. */
export const haveDejaVuMono = existsSync(DEJAVU_MONO);

/** The code points a font file covers (fontconfig's charset: `20-7e a0-1c3 …`). */
export function fontCoverage(file: string): (codePoint: number) => boolean {
  const ranges = execFileSync("fc-query", ["--format=%{charset}", file], { encoding: "utf8" })
    .trim()
    .split(/\s+/)
    .map((range) => range.split("-").map((hex) => Number.parseInt(hex, 16)));
  return (c) => ranges.some(([lo, hi = lo]) => c >= lo && c <= hi);
}

/** The characters of `text` the font does not cover (line breaks and tabs are layout, not glyphs). */
export function missingGlyphs(text: string, covered: (codePoint: number) => boolean): string[] {
  return [...new Set([...text].filter((ch) => !"\n\r\t".includes(ch) && !covered(ch.codePointAt(0)!)))];
}
