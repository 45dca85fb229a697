/**
 * How the entry Pi loads (dist/pi-formchart/index.ts, made by `npm run
 * build`) loads the start bundle, dist/formchart.cjs: compiled with V8's code
 * cache when a valid one is at hand (made after the first start, kept per
 * user in the temporary directory, where Pi's loader keeps its own
 * transforms), so Node skips most of the parsing and compiling at every later
 * start; with Node's `require` when anything about that fails. The build
 * writes this file into the entry as it is (its lines after this comment,
 * without `export`): the sources never call it.
 */
import { createRequire } from "node:module";

export interface LoadedBundle {
  exports: (host: (id: string) => unknown) => Record<string, any>;
  /** Write the code cache after the first start (or after V8 refused the one it had). */
  keepCache(): void;
}

/** The bundle at `url` (a file URL), with its code cache. */
export function loadBundle(url: URL): LoadedBundle {
  const load = createRequire(url);
  // Node's own require for the built-in modules: cheaper than importing each through Pi's loader.
  const { readFileSync, statSync, mkdirSync, writeFileSync, renameSync } = load("node:fs") as typeof import("node:fs");
  const { dirname, join } = load("node:path") as typeof import("node:path");
  const file = load.resolve(`./${url.pathname.split("/").pop()}`);
  try {
    const source = readFileSync(file, "utf8");
    const uid = process.getuid?.() ?? 0;
    const dir = join((load("node:os") as typeof import("node:os")).tmpdir(), `pi-formchart-${uid}`);
    const crypto = load("node:crypto") as typeof import("node:crypto");
    const key = crypto.createHash("sha256").update(`${process.version} ${process.arch}`).update(source).digest("hex");
    const cacheFile = join(dir, `${key.slice(0, 32)}.v8`);
    let cachedData: Buffer | undefined;
    try {
      // Only a directory of this user's own: a cache is code.
      if (statSync(dir).uid === uid) cachedData = readFileSync(cacheFile);
    } catch {}
    const { Script } = load("node:vm") as typeof import("node:vm");
    const script = new Script(`(function (module, exports, require, __filename, __dirname) {${source}\n})`, {
      filename: file,
      cachedData,
    });
    const module = { exports: {} as LoadedBundle["exports"] };
    script.runInThisContext()(module, module.exports, load, file, dirname(file));
    const keepCache = () => {
      if (cachedData && !script.cachedDataRejected) return;
      setImmediate(() => {
        try {
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          if (statSync(dir).uid !== uid) return;
          const temp = `${cacheFile}.${process.pid}`;
          writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
          renameSync(temp, cacheFile);
        } catch {}
      }).unref?.();
    };
    return { exports: module.exports, keepCache };
  } catch {
    return { exports: load(file), keepCache() {} };
  }
}
