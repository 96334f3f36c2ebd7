// Checks a request body against a TypeBox schema and answers the contract's 400 with one
// readable message per field. Routes and server-side form posts call the same function, so
// the JSON API and the no-JavaScript pages validate alike.
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { validationError } from "./errors.ts";
import { holdsNul, NUL_REFUSED } from "./nul.ts";

/**
 * Schema options read here: `error`, the message shown when the field is wrong; `normalize`, a
 * string field's canonical form, taken before any check (NFKC names); `check`, a rule the schema
 * cannot say, run once the schema holds, answering the field's message or null.
 */
type WithMessage = TSchema & {
  error?: string;
  normalize?: (value: string) => string;
  check?: (value: string) => string | null;
};

const propertyOf = (schema: TObject, field: string) => schema.properties[field] as WithMessage | undefined;

const NORMALIZE_MAX = 1024;

function normalizeFields(schema: TObject, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const record = value as Record<string, unknown>;
  for (const [field, current] of Object.entries(record)) {
    const normalize = propertyOf(schema, field)?.normalize;
    // Past this a string fails any length a schema here allows: not worth normalising.
    if (normalize && typeof current === "string" && current.length <= NORMALIZE_MAX) record[field] = normalize(current);
  }
}

/** `convert` turns strings into numbers where the schema wants them: for query strings and HTML forms. */
export function validate<S extends TObject>(schema: S, input: unknown, options: { convert?: boolean } = {}): Static<S> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw validationError({}, "The request body must be a JSON object");
  }
  let value = Value.Clean(schema, Value.Clone(input));
  if (options.convert) value = Value.Convert(schema, value);
  normalizeFields(schema, value);
  const fields: Record<string, string> = {};
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.split("/")[1] ?? "";
    if (!field || fields[field]) continue;
    fields[field] = propertyOf(schema, field)?.error ?? error.message;
  }
  const record = value as Record<string, unknown>;
  for (const field of Object.keys(schema.properties)) {
    const check = propertyOf(schema, field)?.check;
    const current = record[field];
    if (!check || fields[field] || typeof current !== "string") continue;
    const problem = check(current);
    if (problem) fields[field] = problem;
  }
  // After the field's own rules, which may say more (a name's rule names control characters).
  for (const [field, current] of Object.entries(record)) {
    if (!fields[field] && holdsNul(current)) fields[field] = NUL_REFUSED;
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return value as Static<S>;
}

