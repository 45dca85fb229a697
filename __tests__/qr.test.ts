/**
 * The QR code of a form's link under the form in the terminal: drawn for a
 * link another device can open, never for loopback; what the terminal shows
 * decodes (jsQR, off half blocks turned back into pixels, inside the dark
 * background a terminal has around it) to the link; left out, never cut,
 * where the columns or the rows do not leave room; the encoder loaded only
 * when a code is made.
 */
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";
import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { drawModules, type QrCode, qrCode, qrLines, reachableElsewhere } from "../renderers/terminal/qr.js";
import { linkAddress } from "../renderers/web/server.js";
import { loadedBy, projectSources, START_ENTRY, valueImports } from "../scripts/layers.js";
import { fakeHost, openForm } from "./helpers/fake-host.js";
import { codeCells, decode, PAINT } from "./helpers/qr-decode.js";
import { extension, settle } from "./helpers/waiting-extension.js";

const LINK = "http://192.168.1.20:43117/hB6v1yWq0sF0kRr3ZbWnKx8gJc2aQe5tYl7uIo9pAsD/";

function single() {
  const loaded = loadFormFile("single");
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.form.spec;
}

async function codeOf(link: string): Promise<QrCode> {
  const code = await qrCode(link);
  if (!code) throw new Error(`no code for ${link}`);
  return code;
}

describe("which links get a code", () => {
  it.each([
    "http://192.168.1.20:4000/t/",
    "http://10.0.0.7:4000/t/",
    "http://[fd00::2]:4000/t/",
    "http://[fe80::1]:4000/t/",
  ])("%s, which another device can open, does", (link) => {
    expect(reachableElsewhere(link)).toBe(true);
  });

  it.each([
    "http://127.0.0.1:4000/t/",
    "http://127.5.6.7:4000/t/",
    "http://[::1]:4000/t/",
    "http://[::ffff:127.0.0.1]:4000/t/",
    "http://0.0.0.0:4000/t/",
    "http://[::]:4000/t/",
    "http://localhost:4000/t/",
    "not a link",
  ])("%s does not: a phone cannot open it", async (link) => {
    expect(reachableElsewhere(link)).toBe(false);
    expect(await qrCode(link)).toBeUndefined();
  });
});

describe("the code drawn", () => {
  it.each([LINK, "http://[fd12:3456:789a:1:ffff:ffff:ffff:ffff]:65535/hB6v1yWq0sF0kRr3ZbWnKx8gJc2aQe5tYl7uIo9pAsD/"])(
    "decodes to the link: %s",
    async (link) => {
      const code = await codeOf(link);
      expect(decode(codeCells(code.lines))).toBe(link);
      // Two modules a cell, a quiet zone of two around: as wide as the modules, half as high.
      expect(code.lines.every((l) => visibleWidth(l) === code.width)).toBe(true);
      expect(code.lines).toHaveLength(Math.ceil(code.width / 2));
    },
  );

  it("keeps the quiet zone light on every side, and a module off the matrix's edge is not lost", () => {
    const modules = [
      [true, false, true],
      [false, true, false],
      [true, true, true],
    ];
    const code = drawModules(modules);
    expect(codeCells(code.lines)).toEqual(["       ", "  ▀▄▀  ", "  ▀▀▀  ", "       "]);
  });

  it("is the decoder's to read, not the test's: a code with a module flipped in its finder is not read", async () => {
    const cells = codeCells((await codeOf(LINK)).lines);
    const broken = cells.map((line, i) => (i >= 2 && i <= 4 ? `  ${" ".repeat(7)}${line.slice(9)}` : line));
    expect(decode(broken)).toBeUndefined();
  });
});

describe("under the form in the terminal", () => {
  it("shows under the form's help line, and decodes to the link the help line gives", async () => {
    const qr = await codeOf(LINK);
    const { form } = openForm(single(), { link: LINK, qr });
    const lines = form.render(100);
    const help = lines.findIndex((l) => l.includes(`answer in a browser: ${LINK}`));
    const first = lines.findIndex((l) => l.includes(PAINT));
    expect(help).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(help);
    expect(lines.slice(first)).toHaveLength(qr.lines.length);
    expect(decode(codeCells(lines))).toBe(LINK);
  });

  it("is left out, whole, where the columns are fewer than the code's; at exactly its width it has no indent", async () => {
    const qr = await codeOf(LINK);
    const { form } = openForm(single(), { link: LINK, qr });
    expect(codeCells(form.render(qr.width - 1))).toEqual([]);
    const exact = form.render(qr.width).filter((l) => l.includes(PAINT));
    expect(exact.every((l) => l.startsWith(PAINT))).toBe(true);
    expect(decode(codeCells(exact))).toBe(LINK);
    expect(qrLines(qr, qr.width + 1).every((l) => l.startsWith(` ${PAINT}`))).toBe(true);
  });

  it("never takes rows from the form: left out, whole, where it does not fit under it", async () => {
    const qr = await codeOf(LINK);
    const plain = openForm(single(), { link: LINK, host: fakeHost(200, 100) }).form.render(100);
    let shown = 0;
    for (let rows = 6; rows <= 60; rows++) {
      const max = Math.max(6, rows - 4);
      const lines = openForm(single(), { link: LINK, qr, host: fakeHost(rows, 100) }).form.render(100);
      const code = lines.filter((l) => l.includes(PAINT));
      expect(lines.length).toBeLessThanOrEqual(max);
      // All of the code or none of it; with it, the whole form above it as it is without one.
      expect([0, qr.lines.length]).toContain(code.length);
      if (code.length) {
        shown++;
        expect(lines.length).toBe(plain.length + qr.lines.length);
        expect(decode(codeCells(lines))).toBe(LINK);
      } else expect(max).toBeLessThan(plain.length + qr.lines.length);
    }
    expect(shown).toBeGreaterThan(0);
  });

  it.each([1, 2, 10, 10_000])("at a width of %i, every line fits and the code is whole or absent", async (width) => {
    const qr = await codeOf(LINK);
    const lines = openForm(single(), { link: LINK, qr }).form.render(width);
    expect(lines.filter((l) => visibleWidth(l) > width)).toEqual([]);
    const cells = codeCells(lines);
    if (width < qr.width) expect(cells).toEqual([]);
    else expect(decode(cells)).toBe(LINK);
  });

  it("a form without a code draws as before", () => {
    const withLink = openForm(single(), { link: LINK }).form.render(100);
    expect(withLink.filter((l) => l.includes(PAINT))).toEqual([]);
  });
});

describe("the encoder", () => {
  const project = projectSources(".");

  it("is never loaded with Pi's start, the engine or the terminal view, only when a code is made", () => {
    const loaded = new Set([
      ...loadedBy(project, START_ENTRY),
      ...loadedBy(project, "tools/engine/index.ts"),
      ...loadedBy(project, "renderers/terminal/component.ts"),
    ]);
    expect(loaded).toContain("renderers/terminal/qr.ts");
    for (const file of loaded) expect(valueImports(file, project.get(file) ?? "").fixed).not.toContain("uqr");
    expect(valueImports("renderers/terminal/qr.ts", project.get("renderers/terminal/qr.ts")!).onDemand).toEqual([
      "uqr",
    ]);
  });

  it("the check sees it imported with the module", () => {
    const source = `import { encode } from "uqr";\n${project.get("renderers/terminal/qr.ts")}`;
    expect(valueImports("renderers/terminal/qr.ts", source).fixed).toContain("uqr");
  });
});

/** The machine's own address that is not loopback, where it has one: what `webAddress` would name. */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

describe("a form the engine opens with the web setting on", () => {
  async function opened(webAddress: string) {
    const x = await extension(undefined, { settings: { web: true, webAddress } });
    await x.open();
    for (let i = 0; i < 200 && !x.form(); i++) await new Promise((r) => setTimeout(r, 10));
    const lines = x.form()!.render(100);
    const link = /answer in a browser: (http:\S+)/.exec(lines.join("\n"))?.[1];
    const status = link ? (await fetch(link)).status : undefined;
    // Answered, the question leaves the line and its servers close.
    x.form()!.handleInput("2");
    await x.closed();
    await settle();
    expect(x.pi.sent).toHaveLength(1);
    return { lines, link, status };
  }

  it("listening on loopback, gives the link and no code", async () => {
    const { lines, link } = await opened("127.0.0.1");
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(lines.filter((l) => l.includes(PAINT))).toEqual([]);
  });

  (lan ? it : it.skip)(`listening on the machine's own address (${lan}), draws the link's code`, async () => {
    const { lines, link, status } = await opened(lan!);
    expect(link).toContain(`http://${lan}:`);
    expect(decode(codeCells(lines))).toBe(link);
    expect(status).toBe(200);
  });

  (lan ? it : it.skip)(
    `listening everywhere (0.0.0.0), names the machine's own address (${lan}) in the link and its code`,
    async () => {
      const { lines, link, status } = await opened("0.0.0.0");
      expect(link).toContain(`http://${lan}:`);
      expect(decode(codeCells(lines))).toBe(link);
      expect(status).toBe(200);
    },
  );
});

describe("the address a link names", () => {
  const at = (address: string, family: "IPv4" | "IPv6", internal = false) =>
    ({ address, family, internal, netmask: "", mac: "", cidr: null }) as NetworkInterfaceInfo;
  const machine = {
    lo: [at("127.0.0.1", "IPv4", true), at("::1", "IPv6", true)],
    eth0: [at("fe80::1", "IPv6"), at("fd00::2", "IPv6"), at("192.168.1.20", "IPv4")],
  };

  it.each([
    ["192.168.1.20", "192.168.1.20", machine],
    ["127.0.0.1", "127.0.0.1", machine],
    ["0.0.0.0", "192.168.1.20", machine],
    ["::", "192.168.1.20", machine],
    ["0:0:0:0:0:0:0:0", "192.168.1.20", machine],
    ["::", "fd00::2", { lo: machine.lo, eth0: [at("fe80::1", "IPv6"), at("fd00::2", "IPv6")] }],
    ["::", "::1", { lo: machine.lo, eth0: [at("fe80::1", "IPv6")] }],
    ["0.0.0.0", "127.0.0.1", { lo: machine.lo, eth0: [at("fd00::2", "IPv6")] }],
  ])("listening on %s names %s", (address, named, interfaces) => {
    expect(linkAddress(address, interfaces)).toBe(named);
  });
});
