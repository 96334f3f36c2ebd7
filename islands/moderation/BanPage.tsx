// The whole screen once this account is banned (issue 8): why, until when, and where to appeal.
// It replaces the chat screen, so calls and Video Roulette unmount and stop their camera. Loaded
// with the chat screen, not lazily: it must appear even if fetching a chunk would fail now.
import { useEffect, useRef } from "react";
import type { BanNotice } from "../lib/types.ts";
import { locale, localeTag, t } from "../i18n.ts";
import { banEndSentence } from "./texts.ts";

/** English dates the British way ("30 November 2026"), as before; other languages their own. */
const dateLocale = () => ({ locale: locale() === "en" ? "en-GB" : localeTag() });

export default function BanPage({ notice }: { notice: BanNotice | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Whatever had focus (a message box, a call button) is gone: start reading from the title.
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="ban-page" aria-labelledby="ban-title">
      <div className="ban-card">
        <span className="ban-icon" aria-hidden="true">
          !
        </span>
        <h1 id="ban-title" ref={heading} tabIndex={-1}>
          {t("mod.ban_page_title")}
        </h1>
        {notice ? (
          <>
            {notice.reason && (
              <div className="ban-reason">
                <h2>{t("mod.reason")}</h2>
                <p>{notice.reason}</p>
              </div>
            )}
            <p className="ban-end">
              {notice.until ? <time dateTime={notice.until}>{banEndSentence(notice.until, dateLocale())}</time> : banEndSentence(null)}
            </p>
            <p className="ban-help">{t("mod.ban_help")}</p>
            <a className="ban-appeal" href={notice.appeal_url}>
              {t("mod.appeal_link")}
            </a>
          </>
        ) : (
          <>
            {/* The socket closed with 4403 before the notice arrived: the login answer carries it. */}
            <p className="ban-help">{t("mod.ban_sign_in")}</p>
            <a className="ban-appeal" href="/">
              {t("mod.go_sign_in")}
            </a>
          </>
        )}
      </div>
    </main>
  );
}
