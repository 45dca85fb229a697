/**
 * The tools Pi is given, which of them the model sees declared, and how it
 * reaches the others.
 *
 * Contract: every tool is callable by its name on every host; the tool set
 * (tools/tool-sets.ts) only chooses which are declared.
 *
 * - Pi 1.x: all tools are registered and active, so a call by name finds
 *   them. The set's tools are `model-only` (declared, never callable from
 *   scripts); the others are `deferred`, and every tool's `prepareLoadout`
 *   hides their declarations from requests. The first declared tool carries
 *   one prompt line naming them, and Pi's `tool_search` is switched on at
 *   session start. Pi's search only ranks tools that are not active: just
 *   before a `tool_search` call runs, the hidden tools leave the active set;
 *   when it returns, the ones it loaded are declared from then on and the
 *   others go back, active and hidden. A call of one of these tools from
 *   another tool (a codemode script's `ctx.executeTool`) is blocked: they ask
 *   the person, and only the model may call them. Choosing another set
 *   re-registers the tools and takes effect at the next request.
 *   `withdraw_question` is hidden too, in every set: the text of a call that
 *   asked without waiting names it, and it is callable by name.
 * - Pi 0.73 has neither exposure nor hidden declarations: what is registered
 *   is declared (`withdraw_question` in every set). Every tool is registered
 *   unless the settings file names a set; a set chosen while Pi runs takes
 *   effect when it starts again.
 * - Where no one can answer (print and JSON mode: no UI; RPC has dialogs)
 *   and in the `none` set, no form tool is declared or active, nor
 *   `withdraw_question`, nor the tool_search this package switched on, so
 *   their prompt lines go too; `declareWithoutUI` in the settings keeps the
 *   set without a UI, for a pipeline that wants the `no_ui` result.
 * - The person's `promptLines` (settings) replace the tools' rules and the
 *   `wait` line; the line naming the undeclared tools stays.
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

/** One named set's cost on this host. */
export interface SetCost {
  name: ToolSetName;
  chars: number;
  tools: readonly string[];
}

export class ToolLoadout {
  /** The tools registered with Pi. */
  readonly registered: readonly AnyManifest[];
  /** The set in force in this Pi (not what another process may since have saved). */
  private set: { name: ToolSetName | "custom"; tools: Set<string> };
  /** Tools tool_search loaded in this session: declared too, until another set is chosen. */
  private readonly found = new Set<string>();
  /** The hidden tools a running tool_search call took out of the active set, by call. */
  private readonly searching = new Map<string, string[]>();
  /** Whether this package switched tool_search on (and may switch it off again). */
  private searchOn = false;
  /** What tool_search costs a request, once Pi can say (at session start); until then, call shapes reach the hidden tools. */
  private searchChars: number | undefined;
  /** No one can answer here (print or JSON mode, unless the settings keep the tools): no form tool is declared. */
  private noUI = false;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly state: FormchartState,
    /** The host can register a tool and hide its declaration (Pi 1.x). */
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

  /** The set in force here, and its tools. */
  get inForce(): { name: ToolSetName | "custom"; tools: string[] } {
    return { name: this.set.name, tools: MANIFESTS.map((t) => t.name).filter((n) => this.set.tools.has(n)) };
  }

  /** Tools tool_search loaded in this session beyond the set. */
  get loaded(): string[] {
    return [...this.found];
  }

  /** The tools the model sees declared. */
  get declared(): AnyManifest[] {
    return this.registered.filter((tool) => this.isDeclared(tool.name));
  }

  /** The registered tools whose declarations requests leave out (Pi 1.x). */
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

  /** How the set in force reaches the tools it leaves undeclared. */
  private reach(): HiddenReach {
    return reachOf(
      this.registered.filter((t) => !this.set.tools.has(t.name)),
      this.searchChars,
    );
  }

  /**
   * At session start (and after a set is chosen): every tool active, and Pi's
   * tool_search with them while some are hidden and it is the cheaper way to
   * reach them (the tools are registered again when that changes the line).
   */
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

  /**
   * Whether no form tool is declared or callable: the `none` set, or no UI
   * (print and JSON mode) unless the settings keep the tools.
   */
  get withdrawn(): boolean {
    return this.noUI || this.set.tools.size === 0;
  }

  /** Whether this session has no one to answer and the settings leave the tools out: said at session start. */
  get withoutUI(): boolean {
    return this.noUI;
  }

  /** At session start: whether anyone can answer (Pi gives RPC a UI); without one the tools go unless the settings keep them. */
  start(hasUI: boolean): void {
    this.noUI = !hasUI && !this.state.settings.declareWithoutUI;
    this.activate();
  }

  /** Every form tool, withdraw_question and the tool_search this package switched on leave the active set: requests carry none of them. */
  private withdraw(): void {
    const ours = new Set([...this.registered.map((tool) => tool.name), WITHDRAW_TOOL]);
    if (this.searchOn) ours.add(TOOL_SEARCH);
    this.searchOn = false;
    this.pi.setActiveTools(this.pi.getActiveTools().filter((name) => !ours.has(name)));
  }

  /** Just before a tool_search call runs: the hidden tools leave the active set, so Pi's search ranks them. */
  beforeSearch(toolCallId: string): void {
    const hidden = this.defers && !this.withdrawn ? this.hidden : [];
    if (hidden.length === 0) return;
    this.searching.set(toolCallId, hidden);
    this.pi.setActiveTools(this.pi.getActiveTools().filter((name) => !hidden.includes(name)));
  }

  /** When it returns: the tools it loaded are declared from now on, the others active and hidden again. */
  afterSearch(toolCallId: string, details: unknown): void {
    const hidden = this.searching.get(toolCallId);
    if (!hidden) return;
    this.searching.delete(toolCallId);
    const loaded = (details as { loaded?: unknown } | undefined)?.loaded;
    for (const name of hidden) if (Array.isArray(loaded) && loaded.includes(name)) this.found.add(name);
    const active = this.pi.getActiveTools();
    this.pi.setActiveTools([...active, ...hidden.filter((name) => !active.includes(name))]);
  }

  /** Declare another set; true when it takes effect now, false when Pi must start again. */
  choose(name: ToolSetName, tools: readonly string[]): boolean {
    if (!this.defers) return false;
    this.set = { name, tools: new Set(tools) };
    this.found.clear();
    for (const tool of this.registered) this.register(tool);
    this.activate();
    return true;
  }

  /**
   * What each named set costs every request on this host, in characters (Pi's
   * tool_search included where it is switched on). `searchSnippet` is
   * tool_search's line in the tool list, which Pi keeps in its prompt options.
   */
  costs(searchSnippet?: string): SetCost[] {
    return (Object.keys(TOOL_SETS) as ToolSetName[]).map((name) => ({
      name,
      tools: TOOL_SETS[name],
      chars: this.cost(TOOL_SETS[name], searchSnippet),
    }));
  }

  /**
   * What the rules of a set's tools cost every request, in characters: the
   * tools' own and `wait`'s, or the person's `promptLines` in their place.
   */
  ruleCost(tools: readonly string[]): number {
    const own = MANIFESTS.filter((tool) => tools.includes(tool.name));
    const promptLines = this.state.settings.promptLines;
    return own.reduce((sum, tool, i) => sum + ruleChars(linesOf(tool, i === 0, undefined, promptLines)), 0);
  }

  /** What a set of tools costs every request on this host, in characters. */
  cost(tools: readonly string[], searchSnippet?: string): number {
    // No form tool: nothing of this package in the request.
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
