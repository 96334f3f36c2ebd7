// Pure text formatting for the chat screen (spec section 9 fixes every number here).
import { formatDistanceToNow } from "date-fns";
import { MAX_AGE, MIN_AGE } from "../../src/users/values.ts";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { locale, localeTag, t } from "../i18n.ts";

const WEEKDAYS = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, "0");

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/**
 * Chat list time label, in local time: HH:MM today; a two-letter weekday within the last 7 days;
 * DD.MM earlier this year; DD.MM.YYYY before that. An unreadable date gives "".
 */
export function chatTimeLabel(value: string | Date | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return "";
  if (sameDay(date, now)) return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  // "Within 7 days": the six calendar days before today (a week ago today would repeat today's name).
  if (date.getTime() < startOfToday && date.getTime() >= startOfToday - 6 * DAY_MS) {
    // English keeps the spec's two letters; other languages their own short weekday names.
    return locale() === "en" ? (WEEKDAYS[date.getDay()] ?? "") : new Intl.DateTimeFormat(localeTag(), { weekday: "short" }).format(date);
  }
  if (date.getFullYear() === now.getFullYear()) return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}`;
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** Message time such as "about 2 hours ago"; a date that cannot be formatted shows "now". */
export function relativeTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return t("common.now");
  try {
    if (locale() !== "en" && typeof Intl.RelativeTimeFormat === "function") return intlRelative(date);
    return formatDistanceToNow(date, { addSuffix: true });
  } catch {
    return t("common.now");
  }
}

/** "vor 2 Stunden", "hace 3 días": the largest whole unit, through Intl (no date-fns locale is bundled). */
function intlRelative(date: Date): string {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [["year", 31_536_000], ["month", 2_592_000], ["day", 86_400], ["hour", 3_600], ["minute", 60]];
  const format = new Intl.RelativeTimeFormat(localeTag(), { numeric: "auto" });
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(0, "minute");
}

export const PREVIEW_LENGTH = 50;

/** Chat list preview: cut at 50 characters with an ellipsis. */
export function previewText(text: string, max: number = PREVIEW_LENGTH): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max).join("")}...` : chars.join("");
}

/** Unread badge: the count, or "99+" above 99; nothing for zero. */
export function badgeText(count: number): string {
  if (count <= 0) return "";
  return count > 99 ? "99+" : String(count);
}

/** File size in KB with one decimal. */
export function fileSizeKb(bytes: number | null | undefined): string {
  const kb = (bytes ?? 0) / 1024;
  // English keeps the spec's "1.5 KB"; other languages write the number their way ("1,5 KB").
  const size = locale() === "en" ? kb.toFixed(1) : new Intl.NumberFormat(localeTag(), { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }).format(kb);
  return t("chat.size_kb", { size });
}

/** The flag emoji of a two-letter country code (regional indicator symbols). */
export function flagEmoji(code: string | null | undefined): string {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...code.toUpperCase().split("").map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const regionNames = new Map<string, Intl.DisplayNames | null>();

/**
 * A country's name in the page's language, from the browser's Intl data (as the landing page's
 * list does); English, an unknown code or a browser without Intl.DisplayNames keep `name`.
 */
export function countryLabel(code: string | null | undefined, name: string): string {
  if (!code || locale() === "en") return name;
  const tag = localeTag();
  if (!regionNames.has(tag)) {
    let names: Intl.DisplayNames | null;
    try {
      names = new Intl.DisplayNames([tag], { type: "region", fallback: "none" });
    } catch {
      names = null;
    }
    regionNames.set(tag, names);
  }
  try {
    return regionNames.get(tag)?.of(code.toUpperCase()) ?? name;
  } catch {
    return name;
  }
}

/**
 * Countries for a list: each with its `label` in the page's language, in that language's
 * alphabetical order (English keeps the server's names and order). `name` stays the server's
 * English name, which the people search filters by.
 */
export function countriesForList<C extends { code: string; name: string }>(countries: readonly C[]): (C & { label: string })[] {
  if (locale() === "en") return countries.map((c) => ({ ...c, label: c.name }));
  const order = new Intl.Collator(localeTag());
  return countries.map((c) => ({ ...c, label: countryLabel(c.code, c.name) })).sort((a, b) => order.compare(a.label, b.label));
}

/** "Member since" date: long US-English form, e.g. "November 22, 2026". */
export function longDate(value: string | null | undefined): string {
  const date = toDate(value);
  if (!date) return "";
  return date.toLocaleDateString(locale() === "en" ? "en-US" : localeTag(), { year: "numeric", month: "long", day: "numeric" });
}

/** First letter of a name for avatar placeholders. */
export function initial(name: string | null | undefined): string {
  const first = Array.from((name ?? "").trim())[0];
  return first ? first.toUpperCase() : "?";
}

const GENDER_KEYS: Record<string, Key> = {
  male: "common.gender_male",
  female: "common.gender_female",
  other: "common.gender_other",
  non_binary: "common.gender_non_binary",
  prefer_not_to_say: "common.gender_prefer_not_to_say",
};

const LABELS: Record<string, string> = {
  male: "Male",
  female: "Female",
  other: "Other",
  non_binary: "Non-binary",
  prefer_not_to_say: "Prefer not to say",
  heterosexual: "Heterosexual",
  homosexual: "Homosexual",
  bisexual: "Bisexual",
  pansexual: "Pansexual",
  asexual: "Asexual",
};

/** A readable label for a gender or orientation value, in the page's language. */
export function optionLabel(value: string | null | undefined): string {
  if (!value) return "";
  const key = (LABELS[value] === undefined ? null : value in GENDER_KEYS ? GENDER_KEYS[value] : `common.orientation_${value}`) as Key | null;
  if (key && locale() !== "en") return t(key);
  return LABELS[value] ?? value.replace(/_/g, " ");
}

export { genders as GENDERS, orientations as ORIENTATIONS } from "../../src/users/values.ts";
/** Age options: whole numbers 18 to 99 (82 options). */
export const AGES: number[] = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);
