// What makes a username or display name acceptable (API.md "Validation", issue 18), as pure
// functions of the text. No imports beyond reserved.ts: the browser runs the same checks before
// sending, with a lighter fold; the server passes the UTS #39 skeleton (skeleton.ts) and also
// keeps usernames unique by it.
import { reservedWordIn, type Fold, type NameKind } from "./reserved.ts";

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,24}$/;
export const NAME_MAX_LENGTH = 50;
/** Accents stacked on one letter: Hebrew with points and a dagesh needs 3; "Zalgo" text needs dozens. */
export const MAX_MARKS_IN_A_ROW = 3;

export const nameMessages = {
  username: "Username must be 3 to 24 letters, digits or underscores",
  usernameReserved: (word: string) => `Usernames cannot contain “${word}”. Please choose another one`,
  nameLength: `Name must be 1 to ${NAME_MAX_LENGTH} characters`,
  nameHidden: "Name cannot contain control, text-direction or invisible characters",
  nameMarks: `Name cannot stack more than ${MAX_MARKS_IN_A_ROW} accents or marks on one letter`,
  nameInvisible: "Name must contain at least one visible letter, digit, symbol or emoji",
  nameReserved: (word: string) => `Names cannot use the word “${word}”. Please choose another one`,
} as const;

/**
 * Digits and signs people use for letters ("adm1n", "5upport"). Applied after the skeleton on the
 * server (which already made 0 "o" and 1 "l"); alone in the browser. Only ever used to compare.
 */
const LOOKALIKE: Record<string, string> = { "0": "o", "1": "i", l: "i", "|": "i", "!": "i", "3": "e", "4": "a", "@": "a", "5": "s", $: "s", "7": "t", "8": "b", "9": "g" };
export const lookalikeFold = (text: string) => text.replace(/[01l|!3-5@$7-9]/g, (c) => LOOKALIKE[c] ?? c);

/** The browser's fold: case and look-alike digits, no skeleton data (102 KB stays on the server). */
export const plainFold: Fold = (text) => lookalikeFold(text.normalize("NFKC").toLowerCase().replace(/m/g, "rn"));

/** NFKC: full-width and styled letters ("ａｄｍｉｎ", "𝐚𝐝𝐦𝐢𝐧") become the letters they stand for. */
export const normaliseUsername = (raw: string) => raw.normalize("NFKC");

/** NFKC, every kind of space one plain space, no spaces at the ends. */
export const normaliseName = (raw: string) =>
  raw.normalize("NFKC").replace(/\p{Zs}+/gu, " ").trim();

export function usernameProblem(username: string, fold: Fold = plainFold): string | null {
  if (!USERNAME_PATTERN.test(username)) return nameMessages.username;
  const word = reservedWordIn(username, "username", fold);
  return word ? nameMessages.usernameReserved(word) : null;
}

// Joiners have one honest use each; anywhere else they only hide things.
/** A zero-width joiner inside an emoji sequence (👩‍💻). */
const EMOJI_ZWJ = /(\p{Extended_Pictographic}[\u{FE0F}\p{Emoji_Modifier}]*)\u200D(?=\p{Extended_Pictographic})/gu;
/** A zero-width non-joiner between letters of a joining script (Persian "علی‌رضا") or after a virama. */
const ZWNJ_SCRIPTS = ["Arabic", "Syriac", "Nko", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Myanmar", "Khmer"];
const SCRIPT_ZWNJ = new RegExp(`([${ZWNJ_SCRIPTS.map((s) => `\\p{Script=${s}}`).join("")}])\u200C(?=[\\p{L}\\p{M}])`, "gu");
/** Emoji or text presentation right after an emoji (❤️). */
const EMOJI_STYLE = /(\p{Emoji})[\u{FE0E}\u{FE0F}]/gu;
/**
 * Controls, format characters (bidi overrides, isolates, embeddings, marks; zero-width spaces and
 * joiners; tags), private use, unassigned and lone surrogates, line breaks, everything Unicode
 * calls default-ignorable (Hangul fillers, variation selectors), and the blank Braille cell.
 */
const HIDDEN = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
const MARK_RUN = new RegExp(`\\p{M}{${MAX_MARKS_IN_A_ROW + 1}}`, "u");
const VISIBLE = /[\p{L}\p{N}\p{S}]/u;

/** `name` as normaliseName left it. */
export function displayNameProblem(name: string, fold: Fold = plainFold): string | null {
  if (name.length < 1 || name.length > NAME_MAX_LENGTH) return nameMessages.nameLength;
  // No lookbehind anywhere: the landing page's script must parse in older Safari too.
  const allowedRemoved = name.replace(EMOJI_ZWJ, "$1").replace(SCRIPT_ZWNJ, "$1").replace(EMOJI_STYLE, "$1");
  if (HIDDEN.test(allowedRemoved)) return nameMessages.nameHidden;
  if (MARK_RUN.test(name)) return nameMessages.nameMarks;
  if (!VISIBLE.test(name)) return nameMessages.nameInvisible;
  const word = reservedWordIn(name, "name", fold);
  return word ? nameMessages.nameReserved(word) : null;
}

export type { Fold, NameKind };
