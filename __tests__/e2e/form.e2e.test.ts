/**
 * Forms from a JSON Schema in the real `pi`, in tmux, against a scripted
 * model: `ask_form` with an email, an integer in range, a yes/no, a choice
 * and a multi-choice, submitted and declined (the model reads typed values
 * that validate against the schema); and `elicit()` from a second extension
 * loaded beside this one: through an MCP server and client of the official
 * SDK, and over `pi.events`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { assertContentMatches, checkRequestedSchema } from "../../schemas/elicit.js";
import { toolResults } from "../../scripts/fake-model.js";
import { PROJECT_ROOT } from "./pi-home.js";
import { startRpcPi } from "./rpc.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const signup = JSON.parse(readFileSync(join(PROJECT_ROOT, "examples", "form-signup.json"), "utf8")).arguments;
const SECOND_EXTENSION = join(PROJECT_ROOT, "__tests__", "fixtures", "elicit-extension.ts");

describe("ask_form in the real pi", () => {
  it("a five-field form filled with keys: the model receives typed values that validate against its schema", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "ask_form", arguments: signup }] }],
      "askform",
    );
    await prompt("sign me up");
    expect(await term.waitFor("Contact email")).toContain("□ Contact email  ■ Seats");
    term.type("ada@example");
    await term.waitFor("✗ Must be an email address like name@example.com.");
    term.type(".org");
    term.press("Enter");
    await term.waitFor("A whole number from 1 to 50.");
    term.press("BSpace");
    term.type("70");
    await term.waitFor("✗ Must be at most 50.");
    term.press("BSpace", "BSpace");
    term.type("12");
    term.press("Enter");
    await term.waitFor("Share anonymous usage data");
    term.press("1");
    await term.waitFor("United States (Virginia)");
    term.press("2");
    await term.waitFor("Choose 1 to 2.");
    term.press("Space", "Down", "Space", "Down", "Space", "Enter");
    // Three ticked: Enter is refused, the form stays on the question.
    await new Promise((r) => setTimeout(r, 300));
    expect(term.screen()).toContain("[x] 3. canary");
    term.press("Space", "Enter");
    expect(await term.waitFor("Review your answers")).toContain("✗ Decline: press d to decline and send nothing.");
    term.press("Enter");
    await model.waitForRequests(2);
    const [text] = toolResults(model.requests[1]);
    expect(text).toBe(
      [
        "User submitted the form:",
        'email: "ada@example.org"',
        "seats: 12",
        "telemetry: true",
        'region: "us-east"',
        'features: ["previews","rollbacks"]',
      ].join("\n"),
    );
    // The values the model read, parsed back, are the schema's types and pass its check.
    const content = Object.fromEntries(
      text
        .split("\n")
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(":")), JSON.parse(line.slice(line.indexOf(":") + 1))]),
    );
    const checked = checkRequestedSchema(signup.schema, "schema");
    if (!checked.ok) throw new Error(checked.error.message);
    expect(() => assertContentMatches(checked.value, content)).not.toThrow();
  });

  it("declined on the review tab: the model is told, with no values", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "ask_form", arguments: signup }] }],
      "decline",
    );
    await prompt("sign me up");
    await term.waitFor("Contact email");
    term.press("BTab");
    await term.waitFor("Review your answers");
    term.press("d");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      'User declined the form "Beta sign-up": they chose not to give email, seats, telemetry, region, features.',
    ]);
    await term.waitFor("Declined");
  });

  it("through dialogs in RPC mode", async () => {
    const args = {
      message: "Which ticket?",
      schema: { type: "object", properties: { ticket: { type: "integer", minimum: 1 } }, required: ["ticket"] },
    };
    const running = await startRpcPi([{ toolCalls: [{ name: "ask_form", arguments: args }] }], (request) => {
      if (request.method === "input") return { value: request.title?.includes("Must be") ? "42" : "0" };
      if (request.method === "confirm") return { confirmed: true };
      return undefined;
    });
    try {
      running.prompt("go");
      await running.model.waitForRequests(2, 40000);
      expect(toolResults(running.model.requests[1])).toEqual(["User submitted the form:\nticket: 42"]);
    } finally {
      await running.close();
    }
  });
});

// The second extension imports `pi-formchart` by name: the built dist/api.ts, which Pi's loader reads as it reads
// the extension's entry, so it loads in Pi 0.73 as in 1.x.
describe("elicit() from a second extension loaded beside this one", () => {
  it("an MCP server's elicitation/create is answered by a form; the server receives accept, then decline", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "mcp_signup", arguments: {} }] }, { toolCalls: [{ name: "mcp_signup", arguments: {} }] }],
      "mcp",
      { width: 100, height: 32 },
      ["-e", SECOND_EXTENSION],
    );
    await prompt("sign up through the server");
    await term.waitFor("The signup server needs a contact.");
    term.type("grace@example.org");
    term.press("Enter", "Enter");
    await term.waitFor("Review your answers");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      'server received {"action":"accept","content":{"email":"grace@example.org","seats":5},"outcome":"answered"}',
    ]);
    // The model hears of the first form before Pi draws the screen without it: its review must go first.
    await term.waitFor((screen) => !screen.includes("Review your answers"));
    await term.waitFor("The signup server needs a contact.");
    term.press("BTab");
    await term.waitFor("Review your answers");
    term.press("d");
    await model.waitForRequests(3);
    expect(toolResults(model.requests[2]).at(-1)).toBe('server received {"action":"decline","outcome":"declined"}');
  });

  it("over pi.events: accepted, then cancelled with Esc", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "bus_ask", arguments: {} }] }, { toolCalls: [{ name: "bus_ask", arguments: {} }] }],
      "bus",
      { width: 100, height: 32 },
      ["-e", SECOND_EXTENSION],
    );
    await prompt("which environment?");
    expect(await term.waitFor("Which environment?")).toContain("2. Production");
    term.press("2");
    await term.waitFor("Review your answers");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      'bus replied {"action":"accept","content":{"env":"production"},"outcome":"answered"}',
    ]);
    await term.waitFor((screen) => !screen.includes("Review your answers"));
    await term.waitFor("Which environment?");
    term.press("Escape");
    await model.waitForRequests(3);
    expect(toolResults(model.requests[2]).at(-1)).toBe('bus replied {"action":"cancel","outcome":"cancelled"}');
  });
});
