/**
 * The browser tab where there is no terminal (renderers/web/offer.ts) and
 * its settings: the offer's two options, the dialog walk when chosen, a
 * dismissed offer cancelling, an abort ending the wait for the page and
 * freeing its port; the `web` setting's link in the help line; `/formchart web`.
 */
import { connect } from "node:net";
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { FormSession } from "../machines/session.js";
import type { DialogUi } from "../renderers/terminal/dialogs.js";
import { plainText } from "../renderers/text.js";
import { BROWSER_OPTION, OFFER_TITLE, offerBrowser, WALK_OPTION } from "../renderers/web/offer.js";
import { runFormchart } from "../tools/commands.js";
import { FormchartState } from "../tools/state.js";
import { openForm } from "./helpers/fake-host.js";
import { tempAgentDir } from "./helpers/temp.js";

function single() {
  const loaded = loadFormFile("single");
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.form.spec;
}

/** A client whose selects are answered by `pick`; what it was asked is kept. */
function client(pick: (title: string, options: string[]) => string | undefined) {
  const asked: Array<{ title: string; options: string[] }> = [];
  const notes: string[] = [];
  const ui: DialogUi = {
    select: async (title, options) => {
      asked.push({ title, options });
      return pick(title, options);
    },
    input: async () => undefined,
    confirm: async () => true,
    notify: (message) => notes.push(message),
  };
  return { ui, asked, notes };
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("the offer of the browser tab (RPC mode)", () => {
  it("offers the link first and the dialogs second; the dialogs then ask the form", async () => {
    const { ui, asked } = client((title, options) =>
      title === OFFER_TITLE ? WALK_OPTION : options.find((o) => o.includes("SQLite")),
    );
    const outcome = await offerBrowser(ui, new FormSession({ spec: single() }), {});
    expect(asked[0].title).toBe(OFFER_TITLE);
    expect(asked[0].options[0]).toMatch(/^Answer in the browser: http:\/\/127\.0\.0\.1:\d+\/[\w-]{43}\/$/);
    expect(asked[0].options[1]).toBe(WALK_OPTION);
    expect(asked[1].title).toBe("Which database should the new service use?");
    expect(outcome.result).toMatchObject({ cancelled: false, answers: [{ options: [1] }] });
    const port = Number(new URL(asked[0].options[0].slice(BROWSER_OPTION.length)).port);
    expect(await listening(port)).toBe(false);
  });

  it("a dismissed offer cancels the form", async () => {
    const { ui, asked } = client(() => undefined);
    const outcome = await offerBrowser(ui, new FormSession({ spec: single() }), {});
    expect(asked).toHaveLength(1);
    expect(outcome.result.cancelled).toBe(true);
  });

  it("waiting for the page, the call's abort closes the form as cancelled and frees the port", async () => {
    const abort = new AbortController();
    const { ui, notes } = client((_, options) => options[0]);
    const pending = offerBrowser(ui, new FormSession({ spec: single() }), { signal: abort.signal });
    for (let i = 0; i < 200 && notes.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const url = notes.find((n) => n.startsWith("Waiting for the answer in the browser: "))?.split(": ")[1] ?? "";
    const port = Number(new URL(url).port);
    expect(await listening(port)).toBe(true);
    abort.abort();
    const outcome = await pending;
    expect(outcome.result.cancelled).toBe(true);
    expect(await listening(port)).toBe(false);
  });
});

describe("the web setting", () => {
  it("puts the link in the form's help line", () => {
    const link = "http://127.0.0.1:4000/token/";
    const { form } = openForm(single(), { link });
    expect(plainText(form.render(200).join("\n"))).toContain(`answer in a browser: ${link}`);
    expect(plainText(openForm(single()).form.render(200).join("\n"))).not.toContain("browser");
  });

  it("/formchart web on|off is saved with the other settings, off by default", async () => {
    const dir = tempAgentDir();
    const state = new FormchartState(dir);
    expect(state.settings.web).toBe(false);
    expect((await runFormchart("web on", state)).text).toContain("on (served on 127.0.0.1");
    expect(new FormchartState(dir).settings.web).toBe(true);
    expect((await runFormchart("web maybe", state)).level).toBe("error");
    expect((await runFormchart("web off", state)).text).toContain("Browser links in forms: off");
  });
});
