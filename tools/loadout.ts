/**
 * The tools Pi is given, and which of them the model sees directly.
 *
 * Contract: in Pi 1.x every tool is registered; those of the chosen set
 * (tools/tool-sets.ts) are declared to the model, the others are `deferred`,
 * and Pi's `tool_search` is switched on at session start so the model can
 * find them by name or purpose. Choosing another set re-registers the tools
 * whose exposure changes and updates the active set: it takes effect at the
 * next request. Pi 0.73 has no deferred tools: there only the set is
 * registered, and a change takes effect when Pi starts again.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { lenientSchema } from "../schemas/lenient.js";
import { FORM_TOOLS } from "./catalog.js";
import { type AnyFormTool, registerFormTool } from "./form-tool.js";
import type { FormchartState } from "./state.js";
import { TOOL_SETS, type ToolSetName } from "./tool-sets.js";

export const TOOL_SEARCH = "tool_search";

/** Characters a tool adds to every request while declared: its declaration and its prompt lines. */
export function declarationChars(tool: AnyFormTool): number {
  const declaration = JSON.stringify({
    name: tool.name,
    description: tool.description,
    parameters: lenientSchema(tool.parameters),
  });
  return declaration.length + tool.promptSnippet.length + tool.promptGuidelines.join("\n").length;
}

export class ToolLoadout {
  /** The tools registered with Pi, direct or deferred. */
  readonly registered: readonly AnyFormTool[];
  private direct: Set<string>;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly state: FormchartState,
    /** The host can register a tool without declaring it (Pi 1.x). */
    readonly defers: boolean,
  ) {
    this.direct = new Set(state.settings.tools);
    this.registered = defers ? FORM_TOOLS : FORM_TOOLS.filter((tool) => this.direct.has(tool.name));
    for (const tool of this.registered) this.register(tool);
  }

  /** The tools the model sees directly. */
  get declared(): AnyFormTool[] {
    return this.registered.filter((tool) => this.direct.has(tool.name));
  }

  private register(tool: AnyFormTool): void {
    if (!this.defers) {
      registerFormTool(this.pi, this.state, tool);
      return;
    }
    const direct = this.direct.has(tool.name);
    registerFormTool(this.pi, this.state, direct ? this.withSearchHint(tool) : tool, direct ? "direct" : "deferred");
  }

  /**
   * The first declared tool tells the model which tools it can load with
   * tool_search (one line, only while some are deferred): a tool it does not
   * know the name or purpose of, it would never look for.
   */
  private withSearchHint(tool: AnyFormTool): AnyFormTool {
    const deferred = this.registered.filter((t) => !this.direct.has(t.name));
    if (deferred.length === 0 || this.declared[0]?.name !== tool.name) return tool;
    const hint = `Load with tool_search: ${deferred.map((t) => `${t.name} (${t.searchHint})`).join(", ")}.`;
    return { ...tool, promptGuidelines: [...tool.promptGuidelines, hint] };
  }

  /** At session start: with tools deferred, the model needs Pi's tool search to find them. */
  enableSearch(): void {
    if (!this.defers || this.declared.length === this.registered.length) return;
    const known = this.pi.getAllTools().some((tool) => tool.name === TOOL_SEARCH);
    const active = this.pi.getActiveTools();
    if (known && !active.includes(TOOL_SEARCH)) this.pi.setActiveTools([...active, TOOL_SEARCH]);
  }

  /** Declare another set; true when it takes effect now, false when Pi must start again. */
  choose(tools: readonly string[]): boolean {
    const next = new Set(tools);
    if (!this.defers) {
      this.direct = next;
      return false;
    }
    const changed = this.registered.filter((tool) => next.has(tool.name) !== this.direct.has(tool.name));
    this.direct = next;
    // The first declared tool carries the tool-search line: it is given again with the new list.
    for (const tool of new Set([...changed, ...this.declared.slice(0, 1)])) this.register(tool);
    const withdrawn = new Set(changed.filter((tool) => !next.has(tool.name)).map((tool) => tool.name));
    const active = this.pi.getActiveTools().filter((name) => !withdrawn.has(name));
    for (const tool of changed) if (next.has(tool.name) && !active.includes(tool.name)) active.push(tool.name);
    this.pi.setActiveTools(active);
    this.enableSearch();
    return true;
  }

  /** What each named set costs every request, in characters (tool search included where it is needed). */
  costs(): Array<{ name: ToolSetName; chars: number; tools: readonly string[] }> {
    const search = this.defers ? this.searchChars() : 0;
    return (Object.keys(TOOL_SETS) as ToolSetName[]).map((name) => {
      const tools = TOOL_SETS[name];
      const own = FORM_TOOLS.filter((tool) => (tools as readonly string[]).includes(tool.name));
      const chars = own.reduce((sum, tool) => sum + declarationChars(tool), 0);
      return { name, tools, chars: chars + (own.length < FORM_TOOLS.length ? search : 0) };
    });
  }

  private searchChars(): number {
    const info = this.pi.getAllTools().find((tool) => tool.name === TOOL_SEARCH);
    if (!info) return 0;
    const declaration = JSON.stringify({ name: info.name, description: info.description, parameters: info.parameters });
    return declaration.length + (info.promptGuidelines?.join("\n").length ?? 0);
  }
}
