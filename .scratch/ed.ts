import { Editor } from "@mariozechner/pi-tui";
import { editorTheme, plainTheme } from "../renderers/theme.js";

const host = { requestRender() {}, terminal: { rows: 40, columns: 80 } };
const e = new Editor(host as never, editorTheme(plainTheme), { paddingX: 0 });
e.focused = true;
console.log(JSON.stringify(e.render(30)));
e.setText("ab");
console.log(JSON.stringify(e.render(30)));
