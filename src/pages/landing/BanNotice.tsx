// A refused sign-in or entry because of a ban (API.md "Moderation"): why (login only; a refused
// guest or register answer names no account, so no reason), until when, and the appeal link.
// The landing script builds the same block for the JSON answers (islands/enhance/ban-notice.ts).
import { APPEAL_LINK_TEXT, BAN_ACCOUNT_TITLE, BAN_ENTRY_TITLE, banEndSentence } from "../../../islands/moderation/texts.ts";
import type { BanNotice as Ban } from "../../realtime/protocol.ts";

/** "account": the login was refused; "entry": a new account or guest from a banned device or address. */
export type BanKind = "account" | "entry";

export function BanNotice({ ban, kind }: { ban: Ban; kind: BanKind }) {
  return (
    <div className="ban-notice" role="alert" data-ban-notice="">
      <p className="ban-notice-title">{kind === "account" ? BAN_ACCOUNT_TITLE : BAN_ENTRY_TITLE}</p>
      {kind === "account" && ban.reason ? <p className="ban-notice-reason">{`Reason: ${ban.reason}`}</p> : null}
      {/* The server does not know the visitor's time zone: UTC, said so. */}
      <p className="ban-notice-end">{banEndSentence(ban.until, { timeZone: "UTC" })}</p>
      {ban.appeal_url ? (
        <a className="ban-notice-appeal" href={ban.appeal_url}>
          {APPEAL_LINK_TEXT}
        </a>
      ) : null}
    </div>
  );
}
