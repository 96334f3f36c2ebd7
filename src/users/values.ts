// Profile value lists, shared by the server's validation and every form that offers them
// (the landing page, the chat island's profile and search forms). No imports: safe in a bundle.
export const genders = ["male", "female", "other", "non_binary", "prefer_not_to_say"] as const;

export const orientations = [
  "heterosexual",
  "homosexual",
  "bisexual",
  "pansexual",
  "asexual",
  "other",
  "prefer_not_to_say",
] as const;

export const MIN_AGE = 18;
export const MAX_AGE = 99;

// Interests and spoken languages (issue 24, API.md "Interests and languages").
export const MAX_INTERESTS = 10;
export const MAX_LANGUAGES = 5;
/** 2 to 24 letters (with their combining marks), digits, spaces or hyphens, in any script. */
export const INTEREST_PATTERN = /^[\p{L}\p{M}\p{Nd} -]{2,24}$/u;
export const INTEREST_RULE = "Each interest is 2 to 24 letters, digits, spaces or hyphens";

/** An interest as stored: NFC, trimmed, inner spaces folded to one, lower-cased. */
export const normaliseInterest = (value: string): string =>
  value.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("und");

export const isInterest = (tag: string): boolean => INTEREST_PATTERN.test(tag);
/** What people type between interests in one text field (the register form): a comma, or the Arabic comma. */
export const INTEREST_SEPARATORS = /[,،]/;
