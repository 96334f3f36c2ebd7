// The emoji picker in the page's language: its category names from the catalogue, and the emoji
// names its search matches, for the languages emoji-picker-react has them in.
import { Categories, type CategoryConfig, type EmojiDataLoader } from "emoji-picker-react";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { locale, t } from "../i18n.ts";
import type { Locale } from "../../src/i18n/locales.ts";

// The picker's own list and order. It keeps "Custom Emojis" hidden while there are none (this
// product has none), but names it all the same.
const CATEGORY_KEYS: [Categories, Key][] = [
  [Categories.SUGGESTED, "chat.emoji_suggested"],
  [Categories.CUSTOM, "chat.emoji_custom"],
  [Categories.SMILEYS_PEOPLE, "chat.emoji_smileys_people"],
  [Categories.ANIMALS_NATURE, "chat.emoji_animals_nature"],
  [Categories.FOOD_DRINK, "chat.emoji_food_drink"],
  [Categories.TRAVEL_PLACES, "chat.emoji_travel_places"],
  [Categories.ACTIVITIES, "chat.emoji_activities"],
  [Categories.OBJECTS, "chat.emoji_objects"],
  [Categories.SYMBOLS, "chat.emoji_symbols"],
  [Categories.FLAGS, "chat.emoji_flags"],
];

export const emojiCategories = (): CategoryConfig[] => CATEGORY_KEYS.map(([category, key]) => ({ category, name: t(key) }));

// Each file is 200 to 370 KB, so each is its own chunk, fetched when the picker first shows in
// that language. The classic build (process.env.CLASSIC_BUILD, scripts/client-legacy.ts) cannot
// split, and would carry all six inside the chat script: there search stays on English names.
// Turkish, Indonesian and Arabic have no such file in the package.
const EMOJI_NAMES: Partial<Record<Locale, EmojiDataLoader>> = process.env.CLASSIC_BUILD
  ? {}
  : {
      es: () => import("emoji-picker-react/data/emojis-es"),
      pt: () => import("emoji-picker-react/data/emojis-pt"),
      ru: () => import("emoji-picker-react/data/emojis-ru"),
      de: () => import("emoji-picker-react/data/emojis-de"),
      fr: () => import("emoji-picker-react/data/emojis-fr"),
      hi: () => import("emoji-picker-react/data/emojis-hi"),
    };

/** The loader of this page's emoji names, or undefined for the picker's own English ones. */
export const emojiNames = (): EmojiDataLoader | undefined => EMOJI_NAMES[locale()];
