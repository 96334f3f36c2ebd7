// The visitor's page at "/": hero with the auth tabs, the marketing section, the footer and the
// User Agreement modal. No React in the browser: islands/enhance/auth.ts enhances the forms.
import { Document, THEME_AUTH } from "../layout/Document.tsx";
import { Footer } from "../layout/Footer.tsx";
import { Header } from "../layout/Header.tsx";
import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { AgreementModal } from "./AgreementModal.tsx";
import { AuthCard } from "./AuthCard.tsx";
import type { FormState } from "./form-state.ts";
import { Marketing } from "./Marketing.tsx";
import { jsonForScript } from "../layout/Document.tsx";
import { pageStrings } from "../../i18n/catalogue.ts";
import { englishErrors } from "../../i18n/errors.ts";

/** What islands/enhance/* say: the forms' checks and refusals, the country picker, the ban notice. */
const LANDING_SCRIPT_PREFIXES = ["auth.", "mod.", "error."] as const;

export function LandingPage({ page, form }: { page: PageInfo; form: FormState }) {
  const { t } = page;
  return (
    <Document
      page={page}
      title={SITE_NAME}
      description={t("page.description")}
      themeColor={THEME_AUTH}
      styles={["base", "site"]}
      scripts={["auth"]}
      bodyClass="page-auth"
    >
      <Header />
      <main id="main">
        <section className="hero">
          <div className="container hero-inner">
            <div className="hero-text">
              <p className="eyebrow">{t("landing.eyebrow")}</p>
              <h1>{t("landing.h1")}</h1>
              <p className="hero-lead">
                {t("landing.lead")}
              </p>
              <ul className="hero-points">
                <li>{t("landing.point_signup")}</li>
                <li>{t("landing.point_filters")}</li>
                <li>{t("landing.point_anonymous")}</li>
                <li>{t("landing.point_countries")}</li>
              </ul>
            </div>
            <AuthCard state={form} />
          </div>
        </section>
        <Marketing config={page.config} />
      </main>
      <Footer config={page.config} path="/" />
      <AgreementModal config={page.config} />
      {/* The landing script's words (islands/i18n.ts readPageStrings), in this page's language only. */}
      <script
        type="application/json"
        id="i18n-strings"
        dangerouslySetInnerHTML={{
          __html: jsonForScript({
            locale: page.locale,
            strings: pageStrings(page.locale, LANDING_SCRIPT_PREFIXES),
            ...(page.locale === "en" ? {} : { englishErrors }),
          }),
        }}
      />
    </Document>
  );
}
