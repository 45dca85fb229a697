/**
 * Every form tool's manifest, in the order Pi lists them: what Pi registers
 * at start. A new tool is a manifest here; the engine's catalog
 * (tools/engine/catalog.ts) is keyed on `ToolName`, so the compiler asks for
 * its behaviour there.
 */
import { askForm } from "./ask-form.js";
import type { AnyManifest } from "./manifest.js";
import { question } from "./question.js";
import { questionInput } from "./question-input.js";
import { questionThrottle } from "./question-throttle.js";
import { questionBranch, questionnaire } from "./questionnaire.js";
import { askRichQuestions } from "./rich.js";

const LIST = [
  question,
  questionnaire,
  questionInput,
  questionThrottle,
  questionBranch,
  askRichQuestions,
  askForm,
] as const;

export type ToolName = (typeof LIST)[number]["name"];

export const MANIFESTS: readonly (AnyManifest & { name: ToolName })[] = LIST;

export const TOOL_NAMES: readonly ToolName[] = MANIFESTS.map((manifest) => manifest.name);
