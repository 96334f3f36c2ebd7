// The landing page's long section (spec section 1): what the product offers, in words true to
// what it does. The FAQ uses <details>, so it opens and closes without JavaScript.
import type { Config } from "../../config.ts";
import { countries } from "../../geo/countries.ts";
import { SITE_NAME } from "../page-info.ts";
import type { T } from "../../i18n/catalogue.ts";
import { useT } from "../../i18n/react.tsx";

const features = (t: T) => [
  { icon: "\u26A1", title: t("landing.f_guest_title"), text: t("landing.f_guest_text") },
  { icon: "\u{1F50E}", title: t("landing.f_filters_title"), text: t("landing.f_filters_text") },
  { icon: "\u{1F576}\uFE0F", title: t("landing.f_anon_title"), text: t("landing.f_anon_text") },
  { icon: "\u{1F3A5}", title: t("landing.f_roulette_title"), text: t("landing.f_roulette_text") },
  { icon: "\u{1F4AC}", title: t("landing.f_private_title"), text: t("landing.f_private_text") },
  { icon: "\u{1F30D}", title: t("landing.f_countries_title"), text: t("landing.f_countries_text", { count: countries.length }) },
];

const safetyTips = (t: T) => [
  t("landing.tip_personal"),
  t("landing.tip_money"),
  t("landing.tip_leave"),
  t("landing.tip_report", { places: t("safetytext.report_places") }),
  t("landing.tip_nudity"),
  t("landing.tip_record"),
];

const faq = (config: Config, t: T) => [
  { q: t("landing.faq_who_q", { site: SITE_NAME }), a: t("landing.faq_who_a") },
  { q: t("landing.faq_account_q"), a: t("landing.faq_account_a") },
  { q: t("landing.faq_roulette_q"), a: t("landing.faq_roulette_a") },
  { q: t("landing.faq_files_q"), a: t("landing.faq_files_a") },
  { q: t("landing.faq_location_q"), a: t("landing.faq_location_a") },
  {
    q: t("landing.faq_rules_q"),
    a: t("landing.faq_rules_a", { places: t("safetytext.report_places"), email: config.helpEmail, block: t("safetytext.block_sentence") }),
  },
];

export function Marketing({ config }: { config: Config }) {
  const t = useT();
  return (
    <>
      <section className="section" aria-labelledby="features-title">
        <div className="container">
          <h2 id="features-title" className="section-title">
            {t("landing.features_title")}
          </h2>
          <ul className="feature-grid">
            {features(t).map((f) => (
              <li key={f.title} className="feature">
                <span className="feature-icon" aria-hidden="true">
                  {f.icon}
                </span>
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section section-tint" aria-labelledby="safety-title">
        <div className="container safety">
          <div>
            <h2 id="safety-title" className="section-title">
              {t("landing.safety_title")}
            </h2>
            <p className="section-lead">{t("landing.safety_lead")}</p>
          </div>
          <ul className="tip-list">
            {safetyTips(t).map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section" aria-labelledby="faq-title">
        <div className="container narrow">
          <h2 id="faq-title" className="section-title">
            {t("landing.faq_title")}
          </h2>
          <div className="faq">
            {faq(config, t).map((item) => (
              <details key={item.q}>
                <summary>{item.q}</summary>
                <p>{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
