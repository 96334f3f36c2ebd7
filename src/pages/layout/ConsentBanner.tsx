// The cookie banner: a plain form that posts to /consent (works with JavaScript off); the consent
// script (islands/enhance/consent.ts) records the choice in place instead. Also rendered inline
// on the Cookies Policy page so a choice can be changed later.
import { SITE_NAME, type PageInfo } from "../page-info.ts";

export function ConsentForm({ page, inline = false }: { page: PageInfo; inline?: boolean }) {
  const current = page.consent;
  const { t } = page;
  return (
    <form method="post" action="/consent" className="consent-form" data-consent-form="">
      <input type="hidden" name="return" value={page.path} />
      <details className="consent-custom" open={inline}>
        <summary className="btn btn-ghost">{t("consent.customize")}</summary>
        <fieldset>
          <legend>{t("consent.categories")}</legend>
          <label className="check">
            <input type="checkbox" checked disabled />
            <span>
              <strong>{t("consent.necessary")}</strong>{` ${t("consent.necessary_text")}`}
            </span>
          </label>
          <label className="check">
            <input type="checkbox" name="analytics" value="1" defaultChecked={current?.analytics ?? false} />
            <span>
              <strong>{t("consent.analytics")}</strong>{` ${t("consent.analytics_text")}`}
            </span>
          </label>
          <label className="check">
            <input type="checkbox" name="advertising" value="1" defaultChecked={current?.advertising ?? false} />
            <span>
              <strong>{t("consent.advertising")}</strong>{` ${t("consent.advertising_text")}`}
            </span>
          </label>
          <button className="btn btn-secondary" type="submit" name="choice" value="custom">
            {t("consent.save")}
          </button>
        </fieldset>
      </details>
      <div className="consent-actions">
        <button className="btn btn-secondary" type="submit" name="choice" value="reject">
          {t("consent.reject")}
        </button>
        <button className="btn btn-primary" type="submit" name="choice" value="accept">
          {t("consent.accept")}
        </button>
      </div>
    </form>
  );
}

export function ConsentBanner({ page }: { page: PageInfo }) {
  const { t } = page;
  return (
    <section className="consent" id="consent" aria-labelledby="consent-title" data-consent-banner="">
      <h2 id="consent-title" className="consent-title">
        {t("consent.title", { site: SITE_NAME })}
      </h2>
      <p className="consent-text">
        {`${t("consent.text")} `}<a href="/cookies">{t("consent.policy_link")}</a>
      </p>
      <ConsentForm page={page} />
    </section>
  );
}
