// The server's error texts in the visitor's language. Services keep throwing their English texts
// (the spec's words); the edge that writes an answer (http/error-response.ts, the no-JavaScript
// forms) looks each `error` and `fields` text up among the catalogue's error.* messages by its
// English wording, reading any {placeholder} back out of the sentence. `code` is never touched;
// a text the catalogue does not know (developer-facing ones about parameters) stays English.
import { CATALOGUES, translator, type Key } from "./catalogue.ts";
import { en } from "./catalogues/en.ts";
import type { Locale } from "./locales.ts";

interface Pattern {
  key: Key;
  regex: RegExp;
  names: string[];
}

const exact = new Map<string, Key>();
const patterns: Pattern[] = [];
for (const [key, text] of Object.entries(en) as [Key, unknown][]) {
  if (!key.startsWith("error.") || typeof text !== "string") continue;
  const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) {
    exact.set(text, key);
    continue;
  }
  const source = text.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(.+?)");
  patterns.push({ key, regex: new RegExp(`^${source}$`, "s"), names });
}

/** One English server text in `locale`, or the text itself when the catalogue does not know it. */
export function translateError(text: string, locale: Locale): string {
  if (locale === "en") return text;
  const t = translator(locale);
  const key = exact.get(text);
  if (key) return t(key);
  for (const { key, regex, names } of patterns) {
    const match = regex.exec(text);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = match[i + 1] ?? ""));
    return t(key, params);
  }
  return text;
}

/** The contract's error body with `error` and each `fields` text translated; every other member as it was. */
export function translateErrorBody(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  if (locale === "en") return body;
  const out: Record<string, unknown> = { ...body };
  if (typeof body.error === "string") out.error = translateError(body.error, locale);
  if (typeof body.fields === "object" && body.fields !== null) {
    out.fields = Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, typeof v === "string" ? translateError(v, locale) : v]));
  }
  return out;
}

/** Every catalogue holds every error key (the type says so); exported for the tests. */
export const errorKeys = (): Key[] => (Object.keys(CATALOGUES.en) as Key[]).filter((k) => k.startsWith("error."));
