import { createActor } from "xstate";
import { createFormMachine } from "../machines/form.js";
import { normalizeForm } from "../machines/spec.js";

const spec = normalizeForm({ questions: [{ prompt: "p", multiple: true, options: [{ label: "A" }, { label: "B" }] }] });
const a = createActor(createFormMachine(spec), { input: {} }).start();
const s1 = a.getSnapshot();
a.send({ type: "CONFIRM" });
console.log("refused same:", s1 === a.getSnapshot());
const s2 = a.getSnapshot();
a.send({ type: "MOVE", delta: 1 });
console.log("moved same:", s2 === a.getSnapshot());
const s3 = a.getSnapshot();
a.send({ type: "NEXT_TAB" });
console.log("unhandled same:", s3 === a.getSnapshot());
