/**
 * The shape of a stored draft. The session file could have been written or
 * truncated by anything: a draft without this shape is ignored, the form opens blank.
 */
import { type Static, Type } from "typebox";
import { compileChecker } from "./validate.js";

const Index = Type.Integer({ minimum: 0 });
const Picks = Type.Object(
  { options: Type.Array(Index), custom: Type.Array(Type.String()) },
  { additionalProperties: false },
);

export const StoredContext = Type.Object({
  cursors: Type.Array(Index),
  picks: Type.Array(Picks),
  answered: Type.Array(Type.Boolean()),
  drafts: Type.Array(Type.String()),
  typed: Type.Optional(Type.Array(Type.Array(Type.String()))),
  waited: Type.Optional(Type.Boolean()),
  direction: Type.Optional(Type.Enum(["forward", "backward"])),
  notes: Type.Array(Type.Record(Type.String({ pattern: "^[0-9]+$" }), Type.String())),
  additionalText: Type.String(),
  passed: Type.Optional(Type.Array(Type.Boolean())),
  returnToReview: Type.Optional(Type.Boolean()),
  seeking: Type.Optional(Type.Boolean()),
  outcome: Type.Optional(Type.String()),
  /** Questions a timeout answered with their recommended option: never restored as the person's. */
  defaulted: Type.Optional(Type.Array(Type.Boolean())),
});

export type StoredContext = Static<typeof StoredContext>;

/** A question as a draft records it: its id and a digest of its kind and options. */
export const StoredQuestion = Type.Object({ id: Type.String(), shape: Type.String() });

export type StoredQuestion = Static<typeof StoredQuestion>;

export const StoredDraft = Type.Object({
  key: Type.String(),
  context: Type.Optional(StoredContext),
  questions: Type.Optional(Type.Array(StoredQuestion)),
});

/** Whether a session entry's data is a draft this version can read. */
export const checkStoredDraft = compileChecker(StoredDraft);
