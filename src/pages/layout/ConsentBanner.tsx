// The cookie banner: a plain form that posts to /consent (works with JavaScript off); the consent
// script (islands/enhance/consent.ts) records the choice in place instead. Also rendered inline
// on the Cookies Policy page so a choice can be changed later.
import { SITE_NAME, type PageInfo } from "../page-info.ts";

export function ConsentForm({ page, inline = false }: { page: PageInfo; inline?: boolean }) {
  const current = page.consent;
  return (
    <form method="post" action="/consent" className="consent-form" data-consent-form="">
      <input type="hidden" name="return" value={page.path} />
      <details className="consent-custom" open={inline}>
        <summary className="btn btn-ghost">Customize</summary>
        <fieldset>
          <legend>Cookie categories</legend>
          <label className="check">
            <input type="checkbox" checked disabled />
            <span>
              <strong>Necessary</strong> keeps you signed in and remembers this choice. Always on.
            </span>
          </label>
          <label className="check">
            <input type="checkbox" name="analytics" value="1" defaultChecked={current?.analytics ?? false} />
            <span>
              <strong>Analytics</strong> counts visits and pages so we can see what works.
            </span>
          </label>
          <label className="check">
            <input type="checkbox" name="advertising" value="1" defaultChecked={current?.advertising ?? false} />
            <span>
              <strong>Advertising</strong> lets ad partners show and measure ads.
            </span>
          </label>
          <button className="btn btn-secondary" type="submit" name="choice" value="custom">
            Save choices
          </button>
        </fieldset>
      </details>
      <div className="consent-actions">
        <button className="btn btn-secondary" type="submit" name="choice" value="reject">
          Reject non-essential
        </button>
        <button className="btn btn-primary" type="submit" name="choice" value="accept">
          Accept all
        </button>
      </div>
    </form>
  );
}

export function ConsentBanner({ page }: { page: PageInfo }) {
  return (
    <section className="consent" id="consent" aria-labelledby="consent-title" data-consent-banner="">
      <h2 id="consent-title" className="consent-title">
        Cookies on {SITE_NAME}
      </h2>
      <p className="consent-text">
        We use necessary cookies to keep you signed in and your account safe. With your permission we would also use analytics and advertising
        cookies. Nothing optional loads until you choose. <a href="/cookies">Cookies Policy</a>
      </p>
      <ConsentForm page={page} />
    </section>
  );
}
