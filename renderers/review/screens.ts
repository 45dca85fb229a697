/**
 * Terminal screens as HTML, for the review page.
 *
 * Contract: a screen (lines with the theme's escape sequences) is written
 * into a headless xterm.js terminal of its width and read back by xterm.js's
 * HTML serializer: no escape sequence is interpreted here. A row several
 * screens share is stored once; a screen is its row numbers; a row's
 * unstyled blank end is dropped. A line is written to the terminal once
 * however many screens hold it, each line at the top of a terminal of its
 * own (a row is shown on its own, so it must not lean on the row above it);
 * screens are written together at the end.
 * pi-tui 1.x marks its editor's cursor with zero-width APC sequences: the
 * marked cell is drawn in reverse video, as Pi draws it.
 */
import xtermSerialize from "@xterm/addon-serialize";
import xtermHeadless from "@xterm/headless";

// Both packages are CommonJS: their classes come off the module object.
const { Terminal } = xtermHeadless;
const { SerializeAddon } = xtermSerialize;

const DOCUMENT =
  /^<html><body><!--StartFragment--><pre><div style='[^']*'>(<div>.*<\/div>)<\/div><\/pre><!--EndFragment--><\/body><\/html>$/s;

// pi-tui's markers: the hardware cursor, and the start and end of the cell drawn as the cursor.
const FAKE_CURSOR = /\x1b_pi:fc\x07([\s\S]*?)(?:\x1b_pi:\/fc\x07|$)/g;
const APC = /\x1b_[^\x07\x1b]*(?:\x07|\x1b\\)/g;

export function resolveCursorMarkers(line: string): string {
  if (!line.includes("\x1b_")) return line;
  return line.replace(FAKE_CURSOR, "\x1b[7m$1\x1b[27m").replace(APC, "");
}

/** Rows written to a terminal at once: one write and one reading of its cells for all of them. */
const BATCH_ROWS = 200;

/**
 * Screens as rows of HTML, each distinct line of a width serialized once:
 * the screens of a form's routes share most of their lines (the tabs, the
 * options, the help line), so a page writes each of them to the terminal
 * once, not once per screen.
 */
export class ScreenTable {
  readonly rows: string[] = [];
  readonly screens: number[][] = [];
  private readonly rowIds = new Map<string, number>();
  private readonly screenIds = new Map<string, number>();
  /** `width\nline` → the row's id, once written. */
  private readonly lineRows = new Map<string, number>();
  /** Per width, lines not written yet; per screen, its lines. */
  private readonly pending = new Map<number, string[]>();
  private readonly unwritten = new Map<number, string[]>();
  private readonly terminal = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  private readonly serializer = new SerializeAddon();

  constructor() {
    this.terminal.loadAddon(this.serializer as never);
  }

  /** A screen's number; its rows are there once `done()` has written it. */
  add(lines: readonly string[], width: number): number {
    const key = `${width}\n${lines.join("\n")}`;
    const known = this.screenIds.get(key);
    if (known !== undefined) return known;
    const id = this.screens.length;
    this.screens.push([]);
    this.screenIds.set(key, id);
    const keys = (lines.length ? lines : [""]).map((line) => `${width}\n${line}`);
    const waiting = this.pending.get(width) ?? this.pending.set(width, []).get(width)!;
    for (const [i, k] of keys.entries())
      if (!this.lineRows.has(k)) {
        this.lineRows.set(k, -1);
        waiting.push((lines.length ? lines : [""])[i]);
      }
    this.unwritten.set(id, keys);
    return id;
  }

  /** Writes the lines added since: writing a terminal takes a turn of the event loop, so many go in one write. */
  async done(pause: () => Promise<void> | undefined = () => undefined): Promise<void> {
    for (const [width, lines] of this.pending) {
      for (let start = 0; start < lines.length; start += BATCH_ROWS / 2) {
        const batch = lines.slice(start, start + BATCH_ROWS / 2);
        const rows = await this.toHtml(batch, width);
        batch.forEach((line, i) => {
          this.lineRows.set(`${width}\n${line}`, this.rowId(rows[2 * i]));
        });
        const waitingTurn = pause();
        if (waitingTurn) await waitingTurn;
      }
    }
    for (const [id, keys] of this.unwritten) this.screens[id] = keys.map((k) => this.lineRows.get(k)!);
    this.pending.clear();
    this.unwritten.clear();
  }

  private rowId(row: string): number {
    let id = this.rowIds.get(row);
    if (id === undefined) {
      id = this.rows.length;
      this.rows.push(row);
      this.rowIds.set(row, id);
    }
    return id;
  }

  /**
   * Lines one under the other, a blank row between them: the serializer
   * writes a row's styles as changes from the row before, so each line
   * starts after a blank row as at the top of a terminal of its own.
   */
  private async toHtml(lines: readonly string[], width: number): Promise<string[]> {
    const height = 2 * lines.length - 1;
    this.terminal.reset();
    this.terminal.resize(Math.max(1, width), height);
    // A line as wide as the terminal leaves the cursor at its end, so \r\n starts the next; its styles end with it.
    const text = lines.map(resolveCursorMarkers).join("\x1b[0m\r\n\r\n");
    await new Promise<void>((resolve) => this.terminal.write(text, resolve));
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
