// Unicode UTS #39 confusable skeletons (section 4): skeleton(X) = NFD(map(NFD(X))), where map
// is Unicode's confusables.txt, as packaged by `unhomoglyph` (13.0.0; see DECISIONS "Issue 18:
// names"). Two strings with the same skeleton look alike: "Iris" and "lris", "O0" and "OO".
import unhomoglyph from "unhomoglyph";
import { lookalikeFold } from "./rules.ts";
import type { Fold } from "./reserved.ts";

export const skeleton = (text: string): string => unhomoglyph(text.normalize("NFD")).normalize("NFD");

/**
 * What must differ between two usernames. The skeleton comes first, on the name as typed (case
 * matters there: "I" looks like "l", "i" does not); lower-casing then makes case variants one
 * key, as usernames always ignored case; and the skeleton again, because lower-casing can make a
 * letter that looks like others ("M" → "m", which looks like "rn").
 */
export const usernameSkeleton = (username: string): string =>
  skeleton(skeleton(username.normalize("NFKC")).toLowerCase());

/** The server's fold for reserved words: look-alikes in any script, then look-alike digits. */
export const confusableFold: Fold = (text) => lookalikeFold(usernameSkeleton(text));
