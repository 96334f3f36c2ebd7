// The page behind a ban's appeal link: the ban's reason and end, then the appeal form, or the
// appeal's status and the moderator's answer once it was sent. Plain HTML, no script.
import type { AppealRow, BanRow } from "../../../db/schema.ts";
import { Document } from "../layout/Document.tsx";
import { Footer } from "../layout/Footer.tsx";
import { Header } from "../layout/Header.tsx";
import type { PageInfo } from "../page-info.ts";

export const MAX_APPEAL = 1000;

export interface AppealPageProps {
  page: PageInfo;
  ban: BanRow;
  appeal: AppealRow | undefined;
  now: number;
  /** Why the appeal just sent was refused. */
  error?: string;
  /** What the person typed, kept when it was refused. */
  text?: string;
  /** The appeal link of a newer ban in force when this one was replaced or lifted. */
  currentBanUrl?: string | null;
}

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

function AppealStatus({ appeal }: { appeal: AppealRow }) {
  if (appeal.status === "open") {
    return <p className="appeal-status">We received your appeal on {when(appeal.createdAt)}. A moderator will review it; the answer will appear on this page.</p>;
  }
  return (
    <div className="appeal-status">
      <p>
        <strong>{appeal.status === "lifted" ? "Your appeal was accepted: the ban is lifted. You can sign in again." : "Your appeal was reviewed: the ban stays."}</strong>
      </p>
      {appeal.response ? (
        <>
          <h2>The moderator's answer</h2>
          <p className="appeal-text">{appeal.response}</p>
        </>
      ) : null}
    </div>
  );
}

export function AppealPage(props: AppealPageProps) {
  const { ban, appeal } = props;
  const running = ban.liftedAt === null && (ban.until === null || ban.until > props.now);
  return (
    <Document page={props.page} title="Your ban" styles={["base", "site", "mod"]} bodyClass="page-legal" noIndex>
      <Header />
      <main id="main" className="container legal">
        <h1>Your account is banned</h1>
        <dl className="appeal-facts">
          <dt>Reason</dt>
          <dd className="appeal-text">{ban.reason}</dd>
          <dt>Ends</dt>
          <dd>{ban.until === null ? "Never: the ban is permanent." : when(ban.until)}</dd>
        </dl>
        {running ? null : props.currentBanUrl ? (
          <p className="appeal-status">
            This ban was replaced by a newer one. <a href={props.currentBanUrl}>See the ban in force and appeal it</a>.
          </p>
        ) : (
          <p className="appeal-status">{`${ban.liftedAt !== null ? `This ban was lifted on ${when(ban.liftedAt)}.` : "This ban has ended."} You can sign in again.`}</p>
        )}
        {props.error ? (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        ) : null}
        {appeal ? (
          <>
            <h2>Your appeal</h2>
            <p className="appeal-text">{appeal.text}</p>
            <AppealStatus appeal={appeal} />
          </>
        ) : running ? (
          <form method="post" action={props.page.path} className="appeal-form">
            <h2>Appeal</h2>
            <p>If you think this ban is a mistake, tell us why. You can appeal each ban once; a moderator reads every appeal.</p>
            <div className="field">
              <label htmlFor="appeal-text">Your appeal (at most {MAX_APPEAL} characters)</label>
              <textarea id="appeal-text" name="text" rows={6} maxLength={MAX_APPEAL} defaultValue={props.text ?? ""} />
            </div>
            <button type="submit" className="btn btn-primary">
              Send appeal
            </button>
          </form>
        ) : null}
      </main>
      <Footer config={props.page.config} />
    </Document>
  );
}
