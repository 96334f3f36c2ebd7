import { describe, expect, test } from "bun:test";
import { EXPLICIT_AT, SAFE_BELOW, explicitScore, scoresFrom, verdictOf, type NsfwScores } from "../../islands/nudity/thresholds.ts";

const scores = (s: Partial<NsfwScores>): NsfwScores => ({ Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0, ...s });

describe("thresholds", () => {
  test("Porn and Hentai are summed; Sexy does not count", () => {
    expect(explicitScore(scores({ Porn: 0.3, Hentai: 0.25, Sexy: 0.45 }))).toBeCloseTo(0.55);
    expect(verdictOf(scores({ Porn: 0.3, Hentai: 0.25, Sexy: 0.45 }))).toBe("explicit");
    expect(verdictOf(scores({ Sexy: 0.95, Neutral: 0.05 }))).toBe("safe");
  });

  test("explicit at the threshold, safe only below the lower one, unsure between", () => {
    expect(verdictOf(scores({ Porn: EXPLICIT_AT }))).toBe("explicit");
    expect(verdictOf(scores({ Porn: EXPLICIT_AT - 0.01 }))).toBe("unsure");
    expect(verdictOf(scores({ Porn: SAFE_BELOW }))).toBe("unsure");
    expect(verdictOf(scores({ Porn: SAFE_BELOW - 0.01, Neutral: 0.8 }))).toBe("safe");
  });

  test("nsfwjs' prediction list becomes scores, unknown classes ignored", () => {
    const list = [
      { className: "Porn", probability: 0.7 },
      { className: "Neutral", probability: 0.2 },
      { className: "Other", probability: 0.1 },
    ];
    expect(scoresFrom(list)).toEqual(scores({ Porn: 0.7, Neutral: 0.2 }));
  });
});
