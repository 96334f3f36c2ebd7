// Video Roulette's texts for interests and languages, in one place: read from the page's catalogue
// (src/i18n, keys roulette.*) when shown, so they speak the page's language.
import { t } from "../i18n.ts";

export const ROULETTE_INTEREST_TEXTS = {
  get language() {
    return t("roulette.language");
  },
  get anyLanguage() {
    return t("roulette.any_language");
  },
  get interests() {
    return t("roulette.interests");
  },
  get interestsHint() {
    return t("roulette.interests_hint");
  },
  get interestsOnly() {
    return t("roulette.interests_only");
  },
  /** "Looking for someone who likes chess, hiking..." (the words). */
  lookingFor: (tags: readonly string[]) => t("roulette.looking_for", { list: interestList(tags) }),
  /** Under the stranger's label, for both partners. */
  shared: (tags: readonly string[]) => t("roulette.shared", { list: interestList(tags) }),
  speaks: (languages: string) => t("roulette.speaks", { languages }),
};

/** The first three interests, then how many more: "chess, hiking, tea and 2 more". */
export function interestList(tags: readonly string[]): string {
  const separator = t("common.list_separator");
  if (tags.length <= 3) return tags.join(separator);
  return t("roulette.interest_more", { list: tags.slice(0, 3).join(separator), count: tags.length - 3 });
}
