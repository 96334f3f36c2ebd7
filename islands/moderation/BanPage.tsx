// The whole screen once this account is banned (issue 8): why, until when, and where to appeal.
// It replaces the chat screen, so calls and Video Roulette unmount and stop their camera. Loaded
// with the chat screen, not lazily: it must appear even if fetching a chunk would fail now.
import { useEffect, useRef } from "react";
import type { BanNotice } from "../lib/types.ts";
import { APPEAL_LINK_TEXT, BAN_PAGE_TITLE, banEndSentence } from "./texts.ts";

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
          {BAN_PAGE_TITLE}
        </h1>
        {notice ? (
          <>
            {notice.reason && (
              <div className="ban-reason">
                <h2>Reason</h2>
                <p>{notice.reason}</p>
              </div>
            )}
            <p className="ban-end">
              {notice.until ? <time dateTime={notice.until}>{banEndSentence(notice.until)}</time> : banEndSentence(null)}
            </p>
            <p className="ban-help">If you think this is a mistake, tell us why. A moderator will read your appeal.</p>
            <a className="ban-appeal" href={notice.appeal_url}>
              {APPEAL_LINK_TEXT}
            </a>
          </>
        ) : (
          <>
            {/* The socket closed with 4403 before the notice arrived: the login answer carries it. */}
            <p className="ban-help">Sign in again to read the reason, when the ban ends and how to appeal.</p>
            <a className="ban-appeal" href="/">
              Go to the sign-in page
            </a>
          </>
        )}
      </div>
    </main>
  );
}
