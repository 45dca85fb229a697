/**
 * `question_branch`: up to four questions where later ones are shown only
 * when a condition on an earlier answer holds (`when`), or always / never
 * (`on`). Everything else is the questionnaire's; `details.skipped` lists the
 * questions the conditions hid.
 */

import { checkAsWritten, prepareWith } from "../schemas/aliases.js";
import { BranchParameters, checkBranchArgs } from "../schemas/qwizard.js";
import { optionsFromStrings, unnestBranch } from "./prepare.js";
import { questionnaireTool } from "./questionnaire.js";

export const questionBranch = questionnaireTool(
  {
    name: "question_branch",
    label: "Branching questions",
    description:
      "Ask up to 4 questions where later questions depend on earlier answers (when: 'field_id operator value'; on: true/false). " +
      "Hidden questions are skipped and listed in details.skipped.",
    searchHint: "conditional follow-ups",
    promptSnippet: "Ask up to 4 questions where later ones depend on earlier answers",
    promptGuidelines: [
      "Use question_branch when a follow-up question only makes sense for some answers to an earlier question.",
    ],
    parameters: BranchParameters,
    prepareArguments: prepareWith(optionsFromStrings),
    check: checkAsWritten(checkBranchArgs, optionsFromStrings, unnestBranch),
  },
  true,
);
