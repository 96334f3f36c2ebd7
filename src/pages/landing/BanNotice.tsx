// A refused sign-in or entry because of a ban (API.md "Moderation"): why (login only; a refused
// guest or register answer names no account, so no reason), until when, and the appeal link.
// The landing script builds the same block for the JSON answers (islands/enhance/ban-notice.ts).
import { dateTimeFormat } from "../../../islands/moderation/texts.ts";
import { useLocale, useT } from "../../i18n/react.tsx";
import { intlTag } from "../../i18n/locales.ts";
import type { BanNotice as Ban } from "../../realtime/protocol.ts";

/** "account": the login was refused; "entry": a new account or guest from a banned device or address. */
export type BanKind = "account" | "entry";

export function BanNotice({ ban, kind }: { ban: Ban; kind: BanKind }) {
  const t = useT();
  const locale = useLocale();
  const until = ban.until === null ? null : new Date(ban.until);
  const end =
    until === null
      ? t("mod.permanently")
      : t("mod.until", {
          date: Number.isNaN(until.getTime()) ? String(ban.until) : `${dateTimeFormat({ locale: locale === "en" ? "en-GB" : intlTag(locale), timeZone: "UTC" }).format(until)} UTC`,
        });
  return (
    <div className="ban-notice" role="alert" data-ban-notice="">
      <p className="ban-notice-title">{kind === "account" ? t("mod.ban_account_title") : t("mod.ban_entry_title")}</p>
      {kind === "account" && ban.reason ? <p className="ban-notice-reason">{t("auth.reason", { reason: ban.reason })}</p> : null}
      {/* The server does not know the visitor's time zone: UTC, said so. */}
      <p className="ban-notice-end">{t("mod.banned_end", { end })}</p>
      {ban.appeal_url ? (
        <a className="ban-notice-appeal" href={ban.appeal_url}>
          {t("mod.appeal_link")}
        </a>
      ) : null}
    </div>
  );
}
