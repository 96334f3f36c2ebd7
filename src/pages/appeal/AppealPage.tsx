// The page behind a ban's appeal link: the ban's reason and end, then the appeal form, or the
// appeal's status and the moderator's answer once it was sent. Plain HTML, no script.
import type { AppealRow, BanRow } from "../../storage/tables.ts";
import type { T } from "../../i18n/catalogue.ts";
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

function AppealStatus({ appeal, t }: { appeal: AppealRow; t: T }) {
  if (appeal.status === "open") {
    return <p className="appeal-status">{t("appeal.received", { date: when(appeal.createdAt) })}</p>;
  }
  return (
    <div className="appeal-status">
      <p>
        <strong>{appeal.status === "lifted" ? t("appeal.accepted") : t("appeal.rejected")}</strong>
      </p>
      {appeal.response ? (
        <>
          <h2>{t("appeal.answer")}</h2>
          <p className="appeal-text">{appeal.response}</p>
        </>
      ) : null}
    </div>
  );
}

export function AppealPage(props: AppealPageProps) {
  const { ban, appeal } = props;
  const { t } = props.page;
  const running = ban.liftedAt === null && (ban.until === null || ban.until > props.now);
  return (
    <Document page={props.page} title={t("appeal.page_title")} styles={["base", "site", "mod"]} bodyClass="page-legal" noIndex>
      <Header />
      <main id="main" className="container legal">
        <h1>{t("appeal.title")}</h1>
        <dl className="appeal-facts">
          <dt>{t("appeal.reason")}</dt>
          <dd className="appeal-text">{ban.reason}</dd>
          <dt>{t("appeal.ends")}</dt>
          <dd>{ban.until === null ? t("appeal.never") : when(ban.until)}</dd>
        </dl>
        {running ? null : props.currentBanUrl ? (
          <p className="appeal-status">
            {`${t("appeal.replaced")} `}
            <a href={props.currentBanUrl}>{t("appeal.replaced_link")}</a>
            {t("appeal.replaced_after")}
          </p>
        ) : (
          <p className="appeal-status">{`${ban.liftedAt !== null ? t("appeal.lifted_on", { date: when(ban.liftedAt) }) : t("appeal.ended")} ${t("appeal.sign_in_again")}`}</p>
        )}
        {props.error ? (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        ) : null}
        {appeal ? (
          <>
            <h2>{t("appeal.yours")}</h2>
            <p className="appeal-text">{appeal.text}</p>
            <AppealStatus appeal={appeal} t={t} />
          </>
        ) : running ? (
          <form method="post" action={props.page.path} className="appeal-form">
            <h2>{t("appeal.form_title")}</h2>
            <p>{t("appeal.intro")}</p>
            <div className="field">
              <label htmlFor="appeal-text">{t("appeal.label", { max: String(MAX_APPEAL) })}</label>
              <textarea id="appeal-text" name="text" rows={6} maxLength={MAX_APPEAL} defaultValue={props.text ?? ""} />
            </div>
            <button type="submit" className="btn btn-primary">
              {t("appeal.send")}
            </button>
          </form>
        ) : null}
      </main>
      <Footer config={props.page.config} />
    </Document>
  );
}
