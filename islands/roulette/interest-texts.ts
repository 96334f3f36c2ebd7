// Video Roulette's texts for interests and languages (issue 24), in one place: the interface
// languages' catalogues take them over from here.
export const ROULETTE_INTEREST_TEXTS = {
  language: "Language",
  anyLanguage: "Any language",
  interests: "Interests for this session",
  interestsHint: "People who share one are met first. Enter or comma adds, Backspace removes.",
  interestsOnly: "Only people who share my interests",
  /** "Looking for someone who likes chess, hiking..." (the words). */
  lookingFor: (tags: readonly string[]) => `Looking for someone who likes ${interestList(tags)}...`,
  /** Under the stranger's label, for both partners. */
  shared: (tags: readonly string[]) => `You both like ${interestList(tags)}`,
  speaks: (languages: string) => `Speaks ${languages}`,
};

/** The first three interests, then how many more: "chess, hiking, tea and 2 more". */
export function interestList(tags: readonly string[]): string {
  if (tags.length <= 3) return tags.join(", ");
  return `${tags.slice(0, 3).join(", ")} and ${tags.length - 3} more`;
}
