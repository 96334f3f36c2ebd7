// The last instant written out, kept: a message's times (created, delivered) and the frames of one
// batch mostly fall in the same millisecond, and each would otherwise make a Date and a string.
let lastMs = Number.NaN;
let lastIso = "";

/** Milliseconds to the contract's ISO 8601 UTC form with milliseconds. */
export const iso = (ms: number): string => {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};

export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
