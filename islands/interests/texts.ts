// Every text the interest and language inputs show, in one place: read from the page's catalogue
// (src/i18n, keys chat.interest*, chat.language*) when shown, so they speak the page's language.
import { t } from "../i18n.ts";

export const INTEREST_TEXTS = {
  get interests() {
    return t("chat.interests");
  },
  get interestsHint() {
    return t("chat.interests_hint");
  },
  get suggestions() {
    return t("chat.interests_suggested");
  },
  remove: (tag: string) => t("chat.interest_remove", { tag }),
  added: (tag: string) => t("chat.interest_added", { tag }),
  removed: (tag: string) => t("chat.interest_removed", { tag }),
  tooMany: (max: number) => t("chat.interests_too_many", { count: max }),
  get rule() {
    return t("chat.interest_rule");
  },
  get none() {
    return t("chat.interests_none");
  },
  get languages() {
    return t("chat.languages_mine");
  },
  /** On someone else's profile. */
  get theirLanguages() {
    return t("chat.languages_theirs");
  },
  get addLanguage() {
    return t("chat.language_add_label");
  },
  get add() {
    return t("chat.language_add");
  },
  languagesFull: (max: number) => t("chat.languages_full", { count: max }),
  languageAdded: (name: string) => t("chat.language_added", { name }),
};
