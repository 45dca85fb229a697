/**
 * Terminal screens as HTML, for the review page.
 *
 * Contract: a screen (the lines a form renders, with the theme's escape
 * sequences) is written into a headless xterm.js terminal of its width, and
 * xterm.js's own HTML serializer turns the cells into markup, so the page
 * shows what a terminal shows: colours, bold, dim, reverse video and
 * double-width characters. No escape sequence is interpreted here. Screens
 * are kept as rows: a row that several screens share (a header, a help line)
 * is stored once, and a screen is the list of its row numbers. A row's
 * unstyled blank end is dropped (the page gives every screen its width).
 *
 * pi-tui 1.x's editor marks its cursor with zero-width APC sequences (the
 * hardware cursor's place, and the cell drawn as a cursor) that Pi's own
 * terminal renderer turns into a cursor: here the marked cell is drawn in
 * reverse video, as Pi draws it, and no marker reaches the terminal.
 */
import xtermSerialize from "@xterm/addon-serialize";
import xtermHeadless from "@xterm/headless";

// Both packages are CommonJS: their classes come off the module object.
const { Terminal } = xtermHeadless;
const { SerializeAddon } = xtermSerialize;

/** The serializer's document: one `<div>` per row inside a styled `<div>`. */
const DOCUMENT =
  /^<html><body><!--StartFragment--><pre><div style='[^']*'>(<div>.*<\/div>)<\/div><\/pre><!--EndFragment--><\/body><\/html>$/s;

// pi-tui's markers: the hardware cursor, and the start and end of the cell drawn as the cursor.
const FAKE_CURSOR = /\x1b_pi:fc\x07([\s\S]*?)(?:\x1b_pi:\/fc\x07|$)/g;
const APC = /\x1b_[^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** A rendered line as a terminal without pi-tui's cursor handling should receive it. */
export function resolveCursorMarkers(line: string): string {
  if (!line.includes("\x1b_")) return line;
  return line.replace(FAKE_CURSOR, "\x1b[7m$1\x1b[27m").replace(APC, "");
}

export class ScreenTable {
  /** The markup of every distinct row (the inside of its `<div>`). */
  readonly rows: string[] = [];
  /** Every distinct screen, as row numbers. */
  readonly screens: number[][] = [];
  private readonly rowIds = new Map<string, number>();
  private readonly screenIds = new Map<string, number>();
  private readonly terminal = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  private readonly serializer = new SerializeAddon();

  constructor() {
    this.terminal.loadAddon(this.serializer as never);
  }

  /** The number of a screen of `width` columns, added when it is new. */
  async add(lines: readonly string[], width: number): Promise<number> {
    const key = `${width}\n${lines.join("\n")}`;
    const known = this.screenIds.get(key);
    if (known !== undefined) return known;
    const rows = (await this.toHtml(lines, width)).map((row) => {
      let id = this.rowIds.get(row);
      if (id === undefined) {
        id = this.rows.length;
        this.rows.push(row);
        this.rowIds.set(row, id);
      }
      return id;
    });
    const id = this.screens.length;
    this.screens.push(rows);
    this.screenIds.set(key, id);
    return id;
  }

  private async toHtml(lines: readonly string[], width: number): Promise<string[]> {
    const height = Math.max(1, lines.length);
    this.terminal.resize(Math.max(1, width), height);
    this.terminal.reset();
    // Each line ends its own styles; a line as wide as the terminal leaves the cursor at its end, so \r\n starts the next.
    await new Promise<void>((resolve) => this.terminal.write(lines.map(resolveCursorMarkers).join("\r\n"), resolve));
    const html = this.serializer.serializeAsHTML({ includeGlobalBackground: false });
    const match = DOCUMENT.exec(html);
    if (!match) throw new Error("Unexpected HTML from the terminal serializer");
    const rows = match[1]
      .slice("<div>".length, -"</div>".length)
      .split("</div><div>")
      .map((row) => row.replace(/<span> +<\/span>$/, ""));
    if (rows.length !== height) throw new Error(`The terminal serializer wrote ${rows.length} rows of ${height}`);
    return rows;
  }

  dispose(): void {
    this.terminal.dispose();
  }
}
