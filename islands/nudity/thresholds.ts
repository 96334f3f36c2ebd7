// What counts as nudity, in one place (issue 12). nsfwjs gives each picture a probability for
// five classes: Drawing, Hentai, Neutral, Porn and Sexy, summing to 1.
//   - Explicit = Porn + Hentai. The two are summed because the model often splits a nude frame
//     between them; "Sexy" (underwear, swimwear, a bare chest) is left out: blurring every
//     shirtless stranger would make people press "Show anyway" by habit, and then it protects
//     nobody.
//   - A frame at EXPLICIT_AT or above blurs the stranger at once, and a picture stays covered.
//   - A frame counts as safe only below SAFE_BELOW; in between it is "unsure": it blurs nothing
//     new but breaks a run of safe frames, so a stranger who is undressing stays blurred.
//   - SAFE_FRAMES_TO_UNBLUR safe frames in a row unblur a new stranger: one frame can be a lucky
//     angle. How often frames are taken: sampling.ts.

export const NSFW_CLASS_NAMES = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"] as const;
export type NsfwClass = (typeof NSFW_CLASS_NAMES)[number];
export type NsfwScores = Record<NsfwClass, number>;

export const EXPLICIT_CLASSES: readonly NsfwClass[] = ["Porn", "Hentai"];
export const EXPLICIT_AT = 0.5;
export const SAFE_BELOW = 0.2;
export const SAFE_FRAMES_TO_UNBLUR = 3;

export type Verdict = "safe" | "unsure" | "explicit";

export function explicitScore(scores: NsfwScores): number {
  return EXPLICIT_CLASSES.reduce((sum, name) => sum + (scores[name] ?? 0), 0);
}

export function verdictOf(scores: NsfwScores): Verdict {
  const score = explicitScore(scores);
  if (score >= EXPLICIT_AT) return "explicit";
  return score < SAFE_BELOW ? "safe" : "unsure";
}

/** nsfwjs' list of {className, probability} as scores; classes it did not name count as 0. */
export function scoresFrom(predictions: readonly { className: string; probability: number }[]): NsfwScores {
  const scores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
  for (const { className, probability } of predictions) {
    if ((NSFW_CLASS_NAMES as readonly string[]).includes(className)) scores[className as NsfwClass] = probability;
  }
  return scores;
}
