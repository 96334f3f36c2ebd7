// Words no one may take as a name (issue 18): the roulette label and words that make a person
// look like staff or the system. No imports: the landing page and the chat island check the same.
//
// Each word is compared after a fold (see rules.ts: the server's folds through the UTS #39
// skeleton, so "Аdmin" with a Cyrillic А is "admin"; the browser's folds case and digits only).
// `inside`: refused anywhere inside the letters of a name, even without a word break
// ("theadminteam"); `word`: refused as a whole word only, so "modern" and "rooted" stay free.
type Where = "word" | "inside" | "inside-username";

const RESERVED: readonly (readonly [string, Where])[] = [
  ["stranger", "inside-username"], // what roulette partners are called
  ["moderator", "inside"],
  ["mod", "word"],
  ["mods", "word"],
  ["admin", "inside-username"], // a display name "Badminton" is fine; a username "badminton1" is not
  ["administrator", "inside"],
  ["staff", "word"],
  ["support", "inside-username"],
  ["system", "inside-username"],
  ["official", "inside-username"],
  ["webchat", "inside"], // the product's name
  ["root", "word"],
];

/** Generated guest usernames are `Guest_xxxxxx`: a registered account may not look like one. */
const USERNAME_ONLY: readonly string[] = ["guest"];

export type Fold = (text: string) => string;
export type NameKind = "username" | "name";

/** The parts of a name read as words: split at anything that is not a letter or digit, and at camelCase humps. */
export function wordsOf(text: string): string[] {
  return text
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .flatMap((part) => part.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").split(" "))
    .filter((word) => word !== "");
}

/** A word with digits around it ("admin1", "2mod") is still the word. */
const withoutEdgeDigits = (word: string) => word.replace(/^\p{N}+|\p{N}+$/gu, "");

/** The first reserved word a name uses, as it is spelled in the list, or null. */
export function reservedWordIn(text: string, kind: NameKind, fold: Fold): string | null {
  const words = wordsOf(text);
  const folded = new Set(words.flatMap((w) => [fold(w), fold(withoutEdgeDigits(w))]));
  const letters = fold(words.join(""));
  for (const [word, where] of RESERVED) {
    const key = fold(word);
    if (folded.has(key) || letters === key) return word;
    if ((where === "inside" || (where === "inside-username" && kind === "username")) && letters.includes(key)) return word;
  }
  if (kind === "username") {
    for (const word of USERNAME_ONLY) if (folded.has(fold(word)) || letters === fold(word)) return word;
  }
  return null;
}
