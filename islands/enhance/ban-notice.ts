// The ban notice for a JSON answer 403 `banned` (API.md "Moderation"), built as the server builds
// it for the no-JavaScript post (src/pages/landing/BanNotice.tsx): why (login only), until when in
// the visitor's own time zone, and the appeal link. Text goes in as text, never as HTML.
import { dateTimeFormat, safeAppealHref } from "../moderation/texts.ts";
import { locale, localeTag, t } from "../i18n.ts";

export interface BanAnswer {
  code?: string;
  reason?: unknown;
  until?: unknown;
  appeal_url?: unknown;
}

export const isBanAnswer = (answer: BanAnswer) => answer.code === "banned";

function line(className: string, text: string): HTMLParagraphElement {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  return p;
}

/** Shows the notice right after the form's error line, replacing an earlier one. */
export function showBanNotice(form: HTMLFormElement, answer: BanAnswer, kind: "account" | "entry"): HTMLElement {
  clearBanNotice(form);
  const box = document.createElement("div");
  box.className = "ban-notice";
  box.setAttribute("role", "alert");
  box.dataset.banNotice = "";
  // Focused once shown, so keyboard and screen-reader users land on it.
  box.tabIndex = -1;
  box.append(line("ban-notice-title", kind === "account" ? t("mod.ban_account_title") : t("mod.ban_entry_title")));
  if (kind === "account" && typeof answer.reason === "string" && answer.reason) box.append(line("ban-notice-reason", t("auth.reason", { reason: answer.reason })));
  const until = typeof answer.until === "string" ? answer.until : null;
  const date = until === null ? null : new Date(until);
  const end =
    date === null ? t("mod.permanently") : t("mod.until", { date: Number.isNaN(date.getTime()) ? String(until) : dateTimeFormat({ locale: locale() === "en" ? "en-GB" : localeTag() }).format(date) });
  box.append(line("ban-notice-end", t("mod.banned_end", { end })));
  const href = safeAppealHref(typeof answer.appeal_url === "string" ? answer.appeal_url : null, location.href);
  if (href) {
    const link = document.createElement("a");
    link.className = "ban-notice-appeal";
    link.href = href;
    link.textContent = t("mod.appeal_link");
    box.append(link);
  }
  const anchor = form.querySelector("[data-form-error]");
  if (anchor) anchor.after(box);
  else form.prepend(box);
  return box;
}

export function clearBanNotice(form: HTMLFormElement): void {
  for (const old of form.querySelectorAll("[data-ban-notice]")) old.remove();
}
