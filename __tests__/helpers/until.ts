/**
 * `read` again until `ok` says yes (a state reached, not a sleep): the value then; past `timeoutMs`, an error
 * saying what was waited for and what was last read.
 */
export async function until<T>(
  read: () => Promise<T> | T,
  ok: (value: T) => boolean,
  what: string | (() => string),
  { timeoutMs = 10_000, everyMs = 15 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end)
      throw new Error(`${typeof what === "string" ? what : what()}; last seen: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
