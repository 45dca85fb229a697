import { execFileSync } from "node:child_process";
import { startFakeModel } from "../__tests__/e2e/fake-model.js";
import { makePiHome, piCommand } from "../__tests__/e2e/pi-home.js";
import { Terminal } from "../__tests__/e2e/tmux.js";

async function burst(term: Terminal, text: string): Promise<number> {
  const t0 = performance.now();
  term.type(text);
  for (;;) {
    if (term.screen().includes(text)) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2));
  }
}

const model = await startFakeModel([
  { toolCalls: [{ name: "question_input", arguments: { question: "Name of it?" } }] },
]);
const home = makePiHome(model.baseUrl);
const term = new Terminal("lat", 100, 32);
term.start(piCommand([]), home.env, "/tmp");
await term.waitFor("fake-model", 30000);
const own: number[] = [];
for (let i = 0; i < 5; i++) {
  own.push(await burst(term, `abcdefghi${i}`));
  term.press("C-u");
  await new Promise((r) => setTimeout(r, 200));
}
term.press("C-u");
term.type("go");
term.press("Enter");
await term.waitFor("Name of it?");
await new Promise((r) => setTimeout(r, Number(process.env.SETTLE ?? 0)));
const form: number[] = [];
for (let i = 0; i < 5; i++) {
  form.push(await burst(term, `klmnopqrs${i}`));
  await new Promise((r) => setTimeout(r, 200));
}
console.log("pi input:", own.map((x) => x.toFixed(0)).join(" "), "form:", form.map((x) => x.toFixed(0)).join(" "));
term.kill();
await model.close();
home.cleanup();
process.exit(0);
