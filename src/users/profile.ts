// The user's optional `profile` object (spec section 3): free-form, so it is bounded here to a
// flat object of a few plain values. It is stored as JSON text and never queried by its content.
import { Type as t } from "@sinclair/typebox";
import { validationError } from "../http/errors.ts";
import type { Profile } from "../realtime/protocol.ts";

export const MAX_PROFILE_KEYS = 20;
export const MAX_PROFILE_BYTES = 2048;

const PROFILE_RULE = `Profile must be an object of at most ${MAX_PROFILE_KEYS} text, number, true/false or null values`;

export const profileSchema = t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean(), t.Null()]), {
  maxProperties: MAX_PROFILE_KEYS,
});

/** The registration field: absent, null or a bounded object. */
export const profileField = t.Optional(t.Union([profileSchema, t.Null()], { error: PROFILE_RULE }));

/** The column's text for a checked profile; the size is measured as it will be stored. */
export function profileText(profile: Profile | null | undefined): string | null {
  if (profile === null || profile === undefined) return null;
  const text = JSON.stringify(profile);
  if (Buffer.byteLength(text, "utf8") > MAX_PROFILE_BYTES) {
    throw validationError({ profile: `Profile must be at most ${MAX_PROFILE_BYTES} bytes as JSON` });
  }
  return text;
}

/** The stored text back as an object; anything unreadable reads as no profile rather than failing a list. */
export function readProfile(text: string | null): Profile | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Profile) : null;
  } catch {
    return null;
  }
}
