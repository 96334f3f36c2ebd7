// The words a moderated person reads, shared by the chat screen (ban page, removed messages), the
// landing page rendered on the server and the landing script, so they never say it differently.
// No React here: the landing script imports it. The words themselves are the catalogue's mod.*.
import { t } from "../i18n.ts";

/** What a removed message or file says in its place, on both sides. */
export const removedText = (): string => t("mod.removed");

export interface BanEndOptions {
  /** "UTC" on the server, which does not know the reader's time zone; the reader's own otherwise. */
  timeZone?: string;
  locale?: string;
}

/**
 * Long date, short time. dateStyle/timeStyle came in Chrome 76 and Firefox 79; an older browser
 * ignores them and would print only "30/11/2026", so there the parts are named one by one
 * ("30 November 2026, 14:05").
 */
export function dateTimeFormat({ locale = "en-GB", timeZone }: BanEndOptions): Intl.DateTimeFormat {
  const styled = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone });
  if (styled.resolvedOptions().dateStyle) return styled;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone });
}

/** "until 30 November 2026 at 14:05" (with " UTC" when formatted in UTC), or "permanently". */
export function banEnd(until: string | null, options: BanEndOptions = {}): string {
  if (until === null) return t("mod.permanently");
  const date = new Date(until);
  if (Number.isNaN(date.getTime())) return t("mod.until", { date: until });
  const text = dateTimeFormat(options).format(date);
  return t("mod.until", { date: `${text}${options.timeZone === "UTC" ? " UTC" : ""}` });
}

/** "Banned until …" or "Banned permanently". */
export const banEndSentence = (until: string | null, options?: BanEndOptions) => t("mod.banned_end", { end: banEnd(until, options) });

/**
 * The appeal link from a JSON answer as an href, or null: only http(s) addresses (normally our own
 * /appeal/<token> path), so a bad answer can never put a `javascript:` link in the page.
 */
export function safeAppealHref(url: string | null | undefined, base: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}
