// The one line a person reads when a form was refused: the field messages when the error has
// some (a page has no field to highlight them on), else the error's own text.
import type { AppError } from "../../http/errors.ts";

export function errorText(error: AppError): string {
  const fields = error.extra.fields;
  if (typeof fields === "object" && fields !== null) {
    const messages = Object.values(fields).filter((m): m is string => typeof m === "string");
    if (messages.length > 0) return messages.join(" ");
  }
  return error.message;
}
