import { startFakeModel } from "../__tests__/e2e/fake-model.js";
import { makePiHome, piCommand } from "../__tests__/e2e/pi-home.js";
import { Terminal } from "../__tests__/e2e/tmux.js";

const model = await startFakeModel([
  { toolCalls: [{ name: "question_input", arguments: { question: "Name of it?" } }] },
]);
const home = makePiHome(model.baseUrl);
const term = new Terminal("latp", 100, 32);
term.start(["node", "--cpu-prof", "--cpu-prof-dir=/tmp/prof", ...piCommand([])], home.env, "/tmp");
await term.waitFor("fake-model", 30000);
term.type("go");
term.press("Enter");
await term.waitFor("Name of it?");
const t0 = performance.now();
term.type("klmnopqrs0");
for (;;) {
  if (term.screen().includes("klmnopqrs0")) break;
  await new Promise((r) => setTimeout(r, 2));
}
console.log("first burst", (performance.now() - t0).toFixed(0), "ms at", Date.now());
await new Promise((r) => setTimeout(r, 500));
term.press("C-c");
await new Promise((r) => setTimeout(r, 300));
term.press("C-c");
await new Promise((r) => setTimeout(r, 300));
term.press("C-d");
await new Promise((r) => setTimeout(r, 2000));
term.kill();
await model.close();
home.cleanup();
process.exit(0);
