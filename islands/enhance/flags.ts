/** A country's flag as emoji: its two letters as regional indicator symbols. */
export const flagOf = (code: string): string =>
  /^[A-Za-z]{2}$/.test(code) ? String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65)) : "";
