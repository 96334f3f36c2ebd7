// Checks a request body against a TypeBox schema and answers the contract's 400 with one
// readable message per field. Routes and server-side form posts call the same function, so
// the JSON API and the no-JavaScript pages validate alike.
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { validationError } from "./errors.ts";

/** A schema option read here: the message shown when the field is wrong. */
type WithMessage = TSchema & { error?: string };

/** `convert` turns strings into numbers where the schema wants them: for query strings and HTML forms. */
export function validate<S extends TObject>(schema: S, input: unknown, options: { convert?: boolean } = {}): Static<S> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw validationError({}, "The request body must be a JSON object");
  }
  let value = Value.Clean(schema, Value.Clone(input));
  if (options.convert) value = Value.Convert(schema, value);
  const fields: Record<string, string> = {};
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.split("/")[1] ?? "";
    if (!field || fields[field]) continue;
    const property = schema.properties[field] as WithMessage | undefined;
    fields[field] = property?.error ?? error.message;
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return value as Static<S>;
}

