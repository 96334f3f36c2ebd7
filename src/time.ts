/** Milliseconds to the contract's ISO 8601 UTC form with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();

export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
