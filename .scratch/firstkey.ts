const t0 = performance.now();
const { FormComponent } = await import("../renderers/component.js");
const { normalizeForm } = await import("../machines/spec.js");
const { plainTheme } = await import("../renderers/theme.js");
const t1 = performance.now();
const spec = normalizeForm({ questions: [{ prompt: "Name?", options: [], kind: "text" }] });
const host = { requestRender() {}, terminal: { rows: 40, columns: 100 } };
const form = new FormComponent({ spec, host, theme: plainTheme, done() {} });
form.focused = true;
form.render(100);
const t2 = performance.now();
const times: string[] = [];
for (const ch of "abcdefghij") {
  const s = performance.now();
  form.handleInput(ch);
  form.render(100);
  times.push((performance.now() - s).toFixed(2));
}
console.log("import", (t1 - t0).toFixed(0), "open+first render", (t2 - t1).toFixed(1), "keys", times.join(" "));
