/**
 * Every form tool's manifest, in the order Pi lists them: what Pi registers
 * at start. What each does once called is in the engine's catalog
 * (tools/engine/catalog.ts), in the same order. A new tool is a manifest
 * here, its behaviour there, and a line in each list.
 */
import { askForm } from "./ask-form.js";
import type { AnyManifest } from "./manifest.js";
import { question } from "./question.js";
import { questionInput } from "./question-input.js";
import { questionThrottle } from "./question-throttle.js";
import { questionBranch, questionnaire } from "./questionnaire.js";
import { askRichQuestions } from "./rich.js";

export const MANIFESTS: readonly AnyManifest[] = [
  question,
  questionnaire,
  questionInput,
  questionThrottle,
  questionBranch,
  askRichQuestions,
  askForm,
];
