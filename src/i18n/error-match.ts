// Finds which catalogue message an English server text is, reading {placeholder} values back out
// of it. Pure: the server uses it at the edge (errors.ts) and the landing script uses it for the
// checks it makes itself with the server's own rules (src/users/names), which speak English.
import type { Params, Strings } from "./format.ts";

export type TranslateKey = (key: string, params?: Params) => string;

/** `english`: the error.* messages in English. Returns a function turning an English text into `t`'s language. */
export function errorMatcher(english: Strings): (text: string, t: TranslateKey) => string {
  const exact = new Map<string, string>();
  const patterns: { key: string; regex: RegExp; names: string[] }[] = [];
  // A plural message is matched by each of its forms; a {count} read back is a number again, so
  // the translation picks its own plural form.
  const forms = Object.entries(english).flatMap(([key, message]) => (typeof message === "string" ? [[key, message] as const] : Object.values(message).map((text) => [key, text] as const)));
  for (const [key, text] of forms) {
    if (typeof text !== "string") continue;
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (names.length === 0) {
      exact.set(text, key);
      continue;
    }
    const source = text.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(.+?)");
    patterns.push({ key, regex: new RegExp(`^${source}$`, "s"), names });
  }
  return (text, t) => {
    const key = exact.get(text);
    if (key) return t(key);
    for (const { key, regex, names } of patterns) {
      const match = regex.exec(text);
      if (!match) continue;
      const params: Record<string, string | number> = {};
      names.forEach((name, i) => (params[name] = match[i + 1] ?? ""));
      if (typeof params.count === "string" && /^\d+$/.test(params.count)) params.count = Number(params.count);
      return t(key, params);
    }
    return text;
  };
}
