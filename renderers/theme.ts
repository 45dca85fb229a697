/** A form's colours, named as Pi's theme names them: inside Pi, Pi's own `Theme` is a `FormTheme`. */
import type { EditorTheme } from "@earendil-works/pi-tui";

export type FormColor = "accent" | "muted" | "dim" | "text" | "success" | "warning" | "error" | "borderMuted";

export interface FormTheme {
  fg(color: FormColor, text: string): string;
  bg(color: "selectedBg", text: string): string;
  bold(text: string): string;
}

/** No styling at all: what tests compare against. */
export const plainTheme: FormTheme = {
  fg: (_color, text) => text,
  bg: (_color, text) => text,
  bold: (text) => text,
};

const ANSI: Record<FormColor, string> = {
  accent: "36",
  muted: "90",
  dim: "2",
  text: "39",
  success: "32",
  warning: "33",
  error: "31",
  borderMuted: "90",
};

/** 16-colour ANSI theme for running forms outside Pi. */
export const ansiTheme: FormTheme = {
  fg: (color, text) => `\x1b[${ANSI[color]}m${text}\x1b[39;22m`,
  bg: (_color, text) => `\x1b[7m${text}\x1b[27m`,
  bold: (text) => `\x1b[1m${text}\x1b[22m`,
};

export function editorTheme(theme: FormTheme): EditorTheme {
  return {
    borderColor: (s) => theme.fg("accent", s),
    selectList: {
      selectedPrefix: (s) => theme.fg("accent", s),
      selectedText: (s) => theme.fg("accent", s),
      description: (s) => theme.fg("muted", s),
      scrollInfo: (s) => theme.fg("dim", s),
      noMatch: (s) => theme.fg("warning", s),
    },
  };
}
