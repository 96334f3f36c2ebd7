// Every text the interest and language inputs show, in one place (issue 24): the interface
// languages' catalogues take them over from here.
export const INTEREST_TEXTS = {
  interests: "Interests",
  interestsHint: "Type an interest and press Enter or comma. Backspace removes the last one.",
  suggestions: "Suggested interests",
  remove: (tag: string) => `Remove ${tag}`,
  added: (tag: string) => `${tag} added`,
  removed: (tag: string) => `${tag} removed`,
  tooMany: (max: number) => `You can add at most ${max} interests`,
  rule: "An interest is 2 to 24 letters, digits, spaces or hyphens",
  none: "Not set",
  languages: "Languages I speak",
  /** On someone else's profile. */
  theirLanguages: "Languages",
  addLanguage: "Add a language",
  add: "Add",
  languagesFull: (max: number) => `At most ${max} languages`,
  languageAdded: (name: string) => `${name} added`,
};
