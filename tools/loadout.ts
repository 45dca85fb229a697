/**
 * The tools Pi is given, which of them the model sees declared, and how it
 * reaches the others (docs/architecture.md, "What the model sees").
 *
 * Contract: every tool is callable by name on every host; the set only
 * chooses which are declared. Pi 1.x: all registered and active, the set's
 * `model-only`, the others `deferred` with hidden declarations. Pi's search
 * ranks only inactive tools, so the hidden ones leave the active set while a
 * `tool_search` call runs. Pi 0.73: what is registered is declared. With no
 * UI (unless `declareWithoutUI`) or the `none` set, nothing of ours is active.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { MANIFESTS, TOOL_NAMES } from "./catalog.js";
import type { AnyManifest } from "./manifest.js";
import { registerFormTool } from "./register.js";
import {
  declarationOf,
  type HiddenReach,
  linesOf,
  reachOf,
  requestChars,
  ruleChars,
  searchCost,
  TOOL_SEARCH,
} from "./request-cost.js";
import type { FormchartState } from "./state.js";
import { TOOL_SETS, type ToolSetName } from "./tool-sets.js";
import { WITHDRAW_DECLARATION, WITHDRAW_TOOL } from "./waiting.js";

export interface SetCost {
  name: ToolSetName;
  chars: number;
  tools: readonly string[];
}

export class ToolLoadout {
  readonly registered: readonly AnyManifest[];
  /** In force in this Pi, not what another process may since have saved. */
  private set: { name: ToolSetName | "custom"; tools: Set<string> };
  /** Loaded by tool_search: declared too, until another set is chosen. */
  private readonly found = new Set<string>();
  private readonly searching = new Map<string, string[]>();
  /** Only a tool_search this package switched on is switched off again. */
  private searchOn = false;
  /** Known from session start; until then, call shapes reach the hidden tools. */
  private searchChars: number | undefined;
  private noUI = false;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly state: FormchartState,
    readonly defers: boolean,
  ) {
    const { toolSet, tools } = state.settings;
    this.set =
      defers || state.toolSetNamed
        ? { name: toolSet, tools: new Set(tools) }
        : { name: "all", tools: new Set(TOOL_NAMES) };
    this.registered = defers ? MANIFESTS : MANIFESTS.filter((tool) => this.set.tools.has(tool.name));
    for (const tool of this.registered) this.register(tool);
  }

  get inForce(): { name: ToolSetName | "custom"; tools: string[] } {
    return { name: this.set.name, tools: MANIFESTS.map((t) => t.name).filter((n) => this.set.tools.has(n)) };
  }

  get loaded(): string[] {
    return [...this.found];
  }

  get declared(): AnyManifest[] {
    return this.registered.filter((tool) => this.isDeclared(tool.name));
  }

  get hidden(): string[] {
    return this.registered.filter((tool) => !this.isDeclared(tool.name)).map((tool) => tool.name);
  }

  private isDeclared(name: string): boolean {
    return this.set.tools.has(name) || this.found.has(name);
  }

  private register(tool: AnyManifest): void {
    const inSet = this.set.tools.has(tool.name);
    const carrier = inSet && this.registered.find((t) => this.set.tools.has(t.name)) === tool;
    const lines = linesOf(tool, carrier, this.defers ? this.reach().line : undefined, this.state.settings.promptLines);
    const declared = { ...tool, promptGuidelines: lines };
    if (!this.defers) {
      registerFormTool(this.pi, this.state, declared);
      return;
    }
    registerFormTool(this.pi, this.state, declared, {
      exposure: inSet ? "model-only" : "deferred",
      // withdraw_question too: the text of a call that asked without waiting names it.
      prepareLoadout: () => ({ hiddenDeclarations: [...this.hidden, WITHDRAW_TOOL] }),
    });
  }

  private reach(): HiddenReach {
    return reachOf(
      this.registered.filter((t) => !this.set.tools.has(t.name)),
      this.searchChars,
    );
  }

  /** tool_search is switched on while some tools are hidden and it is the cheaper way to reach them. */
  activate(): void {
    if (this.withdrawn) {
      this.withdraw();
      return;
    }
    if (!this.defers) return;
    const before = this.reach();
    this.searchChars = searchCost(this.pi);
    if (this.reach().line !== before.line) for (const tool of this.registered) this.register(tool);
    const active = this.pi.getActiveTools();
    const next = new Set([...active, ...this.registered.map((tool) => tool.name)]);
    // Back from the none set: withdraw_question is callable again (its declaration stays hidden).
    if (this.pi.getAllTools().some((tool) => tool.name === WITHDRAW_TOOL)) next.add(WITHDRAW_TOOL);
    const search = this.hidden.length > 0 && this.reach().search;
    if (search && !next.has(TOOL_SEARCH)) {
      next.add(TOOL_SEARCH);
      this.searchOn = true;
    } else if (!search && this.searchOn) {
      next.delete(TOOL_SEARCH);
      this.searchOn = false;
    }
    this.pi.setActiveTools([...next]);
  }

  /** No form tool declared or callable: the `none` set, or no UI unless the settings keep the tools. */
  get withdrawn(): boolean {
    return this.noUI || this.set.tools.size === 0;
  }

  get withoutUI(): boolean {
    return this.noUI;
  }

  /** Pi gives RPC a UI: only print and JSON mode have none. */
  start(hasUI: boolean): void {
    this.noUI = !hasUI && !this.state.settings.declareWithoutUI;
    this.activate();
  }

  private withdraw(): void {
    const ours = new Set([...this.registered.map((tool) => tool.name), WITHDRAW_TOOL]);
    if (this.searchOn) ours.add(TOOL_SEARCH);
    this.searchOn = false;
    this.pi.setActiveTools(this.pi.getActiveTools().filter((name) => !ours.has(name)));
  }

  /** Pi's search ranks only inactive tools. */
  beforeSearch(toolCallId: string): void {
    const hidden = this.defers && !this.withdrawn ? this.hidden : [];
    if (hidden.length === 0) return;
    this.searching.set(toolCallId, hidden);
    this.pi.setActiveTools(this.pi.getActiveTools().filter((name) => !hidden.includes(name)));
  }

  afterSearch(toolCallId: string, details: unknown): void {
    const hidden = this.searching.get(toolCallId);
    if (!hidden) return;
    this.searching.delete(toolCallId);
    const loaded = (details as { loaded?: unknown } | undefined)?.loaded;
    for (const name of hidden) if (Array.isArray(loaded) && loaded.includes(name)) this.found.add(name);
    const active = this.pi.getActiveTools();
    this.pi.setActiveTools([...active, ...hidden.filter((name) => !active.includes(name))]);
  }

  /** False when Pi must start again for it to take effect. */
  choose(name: ToolSetName, tools: readonly string[]): boolean {
    if (!this.defers) return false;
    this.set = { name, tools: new Set(tools) };
    this.found.clear();
    for (const tool of this.registered) this.register(tool);
    this.activate();
    return true;
  }

  /** Characters each set adds to every request here; `searchSnippet` is tool_search's line from Pi's prompt options. */
  costs(searchSnippet?: string): SetCost[] {
    return (Object.keys(TOOL_SETS) as ToolSetName[]).map((name) => ({
      name,
      tools: TOOL_SETS[name],
      chars: this.cost(TOOL_SETS[name], searchSnippet),
    }));
  }

  ruleCost(tools: readonly string[]): number {
    const own = MANIFESTS.filter((tool) => tools.includes(tool.name));
    const promptLines = this.state.settings.promptLines;
    return own.reduce((sum, tool, i) => sum + ruleChars(linesOf(tool, i === 0, undefined, promptLines)), 0);
  }

  cost(tools: readonly string[], searchSnippet?: string): number {
    if (tools.length === 0) return 0;
    const own = MANIFESTS.filter((tool) => tools.includes(tool.name));
    const rest = MANIFESTS.filter((tool) => !tools.includes(tool.name));
    const reach = this.defers ? reachOf(rest, searchCost(this.pi)) : { search: false };
    const promptLines = this.state.settings.promptLines;
    const declared = own.reduce((sum, tool, i) => {
      const guidelines = linesOf(tool, i === 0, reach.line, promptLines);
      return sum + requestChars({ ...declarationOf(tool), promptGuidelines: guidelines }, !this.defers);
    }, 0);
    const search = this.pi.getAllTools().find((tool) => tool.name === TOOL_SEARCH);
    // Pi 0.73 declares withdraw_question on every request.
    const withdraw = this.defers ? 0 : requestChars(WITHDRAW_DECLARATION, true);
    return (
      declared + withdraw + (reach.search && search ? requestChars({ ...search, promptSnippet: searchSnippet }) : 0)
    );
  }
}
