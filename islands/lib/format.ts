// Pure text formatting for the chat screen (spec section 9 fixes every number here).
import { formatDistanceToNow } from "date-fns";
import { MAX_AGE, MIN_AGE } from "../../src/users/values.ts";

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
    return WEEKDAYS[date.getDay()] ?? "";
  }
  if (date.getFullYear() === now.getFullYear()) return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}`;
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** Message time such as "about 2 hours ago"; a date that cannot be formatted shows "now". */
export function relativeTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return "now";
  try {
    return formatDistanceToNow(date, { addSuffix: true });
  } catch {
    return "now";
  }
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
  return `${((bytes ?? 0) / 1024).toFixed(1)} KB`;
}

/** The flag emoji of a two-letter country code (regional indicator symbols). */
export function flagEmoji(code: string | null | undefined): string {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...code.toUpperCase().split("").map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** "Member since" date: long US-English form, e.g. "November 22, 2026". */
export function longDate(value: string | null | undefined): string {
  const date = toDate(value);
  if (!date) return "";
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

/** First letter of a name for avatar placeholders. */
export function initial(name: string | null | undefined): string {
  const first = Array.from((name ?? "").trim())[0];
  return first ? first.toUpperCase() : "?";
}

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

/** A readable label for a gender or orientation value. */
export function optionLabel(value: string | null | undefined): string {
  if (!value) return "";
  return LABELS[value] ?? value.replace(/_/g, " ");
}

export { genders as GENDERS, orientations as ORIENTATIONS } from "../../src/users/values.ts";
/** Age options: whole numbers 18 to 99 (82 options). */
export const AGES: number[] = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);
