// src/time.ts keeps the last instant it wrote out: whatever order instants come in, each answer
// is that instant's own ISO form, and an instant that cannot be written still throws.
import { expect, test } from "bun:test";
import { iso, isoOrNull } from "../../src/time.ts";

test("each instant gets its own ISO 8601 form, repeated or interleaved", () => {
  const a = Date.UTC(2026, 10, 29, 6, 30, 0, 123);
  const b = a + 1;
  for (const ms of [a, a, b, a, b, b, 0, a]) expect(iso(ms)).toBe(new Date(ms).toISOString());
  expect(iso(a)).toBe("2026-11-29T06:30:00.123Z");
  expect(isoOrNull(null)).toBeNull();
  expect(isoOrNull(b)).toBe("2026-11-29T06:30:00.124Z");
});

test("an instant that cannot be written throws, and the next good one is still right", () => {
  const a = Date.UTC(2026, 0, 1);
  expect(iso(a)).toBe("2026-01-01T00:00:00.000Z");
  expect(() => iso(Number.NaN)).toThrow(RangeError);
  expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  expect(iso(a)).toBe("2026-01-01T00:00:00.000Z");
});
