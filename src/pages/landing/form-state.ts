// What the auth forms show after a no-JavaScript post: which tab is open, what was typed (never
// the password) and the errors per field. The JSON API and the form routes share validation, so
// the messages are the contract's own.
import { AppError } from "../../http/errors.ts";
import type { BanNotice } from "../../realtime/protocol.ts";
import { translateError } from "../../i18n/errors.ts";
import type { Locale } from "../../i18n/locales.ts";

export type AuthTab = "login" | "register" | "guest";

export interface FormState {
  tab: AuthTab;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** The form-level message (bad credentials, rate limit, refused origin). */
  message: string | null;
  /** A 403 `banned` answer: why, until when, and the appeal link (API.md "Moderation"). */
  ban?: BanNotice;
}

export const emptyForm = (tab: AuthTab = "login"): FormState => ({ tab, values: {}, errors: {}, message: null });

/** The message and field errors an AppError carries, in the visitor's language. */
export function errorsOf(error: AppError, locale: Locale = "en"): Pick<FormState, "errors" | "message"> {
  const fields = error.extra.fields;
  const errors: Record<string, string> = {};
  if (typeof fields === "object" && fields !== null) {
    for (const [key, value] of Object.entries(fields)) if (typeof value === "string") errors[key] = translateError(value, locale);
  }
  return { errors, message: translateError(error.message, locale) };
}

/** Text fields echoed back into the form: one string each, passwords left out. */
export function echoValues(body: unknown, keep: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== "object" || body === null) return values;
  for (const key of keep) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === "string") values[key] = value.slice(0, 300);
    // A multiple select's choices (the register form's languages), kept as "en,de".
    else if (Array.isArray(value)) values[key] = value.filter((v): v is string => typeof v === "string").join(",").slice(0, 300);
  }
  return values;
}
