/**
 * The arguments of forms at the tools' own limits, as the tools receive
 * them: 50 `question` questions (single and multi-select, typed answers
 * allowed), 20 `ask_rich_questions` questions (radio, checkbox and text, with
 * notes, typed answers and optional ones) and 4 `question_branch` questions
 * whose conditions use every operator. The path tests, the review page's
 * tests and the benchmark's review rows build the same forms from here; a
 * change of each (an option added, a condition's boundary moved) is what the
 * benchmark times the page of a change on.
 */

/** 50 `question` questions; `addedOption` adds one option to question 21. */
export function questionArguments(n = 50, addedOption = false) {
  const questions = Array.from({ length: n }, (_, i) => ({
    id: `topic${i + 1}`,
    prompt: `Question ${i + 1}?`,
    multiple: i % 6 === 1,
    options: [
      ...Array.from({ length: i % 2 ? 4 : 3 }, (_, j) => ({ label: `Option ${i + 1}.${j + 1}` })),
      ...(addedOption && i === 20 ? [{ label: "Option 21.new" }] : []),
    ],
  }));
  return { questions };
}

/** 20 `ask_rich_questions` questions; `addedOption` adds one choice to question 7. */
export function richArguments(n = 20, addedOption = false) {
  const questions = Array.from({ length: n }, (_, i) => {
    const type = (["radio", "checkbox", "text"] as const)[i % 3];
    return {
      id: `r${i + 1}`,
      label: `R${i + 1}`,
      type,
      prompt: `Rich question ${i + 1}?`,
      ...(i % 2 ? { recommendation: "The first choice" } : {}),
      required: i % 4 !== 3,
      allowOther: i % 5 === 0,
      ...(type === "text"
        ? {}
        : {
            options: [
              ...Array.from({ length: 3 }, (_, j) => ({
                label: `Choice ${i + 1}.${j + 1}`,
                ...(j === 0 ? { recommended: true } : {}),
              })),
              ...(addedOption && i === 6 ? [{ label: "Choice new" }] : []),
            ],
          }),
    };
  });
  return { title: `${n} rich questions`, questions };
}

/** 4 `question_branch` questions using every operator; Kind is asked from Size `kindFrom` on. */
export function branchingArguments(kindFrom = 2) {
  const size = (operator: string, value: number) => ({ field: "size", operator, value });
  return {
    questions: [
      { id: "size", label: "Size", prompt: "Size?", options: [1, 2, 3, 4, 5].map((n) => ({ label: String(n) })) },
      {
        id: "kind",
        label: "Kind",
        prompt: "Kind?",
        when: [size("gte", kindFrom), size("lte", 4), "size in 2, 3, 4"],
        options: [{ label: "yes please" }, { label: "no thanks" }],
      },
      {
        id: "who",
        label: "Who",
        prompt: "Who?",
        when: [
          size("gt", 1),
          size("lt", 5),
          { field: "kind", operator: "contains", value: "yes" },
          { field: "kind", operator: "matches", value: "^y" },
          { field: "kind", operator: "not_equals", value: "no thanks" },
          { field: "kind", operator: "is_not_empty" },
          { field: "kind", operator: "equals", value: "yes please" },
        ],
        type: "multi",
        required: false,
        options: [{ label: "Ada" }, { label: "Grace" }],
      },
      {
        id: "why",
        label: "Why",
        prompt: "Why nobody?",
        when: [{ field: "who", operator: "is_empty" }],
        options: [{ label: "Because" }, { label: "Another reason" }],
      },
    ],
  };
}
