// The User Agreement modal. Without JavaScript it is a :target overlay opened by the
// "#agreement" links and closed by links back to the form; the enhancement script turns it into
// a real modal (focus kept inside, Escape, click on the overlay closes, focus returns).
import type { Config } from "../../config.ts";
import { SITE_NAME } from "../page-info.ts";
import { useT } from "../../i18n/react.tsx";

export function AgreementModal({ config }: { config: Config }) {
  const t = useT();
  const site = SITE_NAME;
  return (
    <div className="modal" id="agreement" role="dialog" aria-modal="true" aria-labelledby="agreement-title" data-modal="">
      <a className="modal-overlay" href="#auth" tabIndex={-1} aria-hidden="true" data-modal-close="">
        <span className="sr-only">{t("agreement.close")}</span>
      </a>
      <div className="modal-box">
        <h2 id="agreement-title">{t("agreement.title")}</h2>
        <div className="modal-body">
          <p>
            {`${config.operatorName === SITE_NAME ? "" : t("agreement.run_by", { site, operator: config.operatorName })}${t("agreement.intro_before")} `}
            <a href="/terms">{t("agreement.intro_link")}</a>.
          </p>
          <ol>
            <li>{t("agreement.rule_age", { site })}</li>
            <li>{t("agreement.rule_nudity")}</li>
            <li>{t("agreement.rule_monitor")}</li>
            <li>{t("agreement.rule_prove")}</li>
            <li>
              {`${t("agreement.rule_report_before", { places: t("safetytext.report_places") })} `}
              <a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>
              {`. ${t("safetytext.block_sentence")} ${t("agreement.rule_report_after")}`}
            </li>
            <li>{t("agreement.rule_harass")}</li>
            <li>{t("agreement.rule_liability")}</li>
          </ol>
          <p>
            {`${t("agreement.data_before")} `}
            <a href="/privacy">{t("footer.privacy")}</a>
            {` ${t("agreement.data_and")} `}
            <a href="/cookies">{t("footer.cookies")}</a>.
          </p>
        </div>
        <a className="btn btn-primary modal-close" href="#auth" data-modal-close="">
          {t("agreement.close")}
        </a>
      </div>
    </div>
  );
}
