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

export function LandingPage({ page, form }: { page: PageInfo; form: FormState }) {
  return (
    <Document
      page={page}
      title={SITE_NAME}
      description="Random video chat and private messages for adults (18+). No sign-up required: enter as a guest, filter by gender and country, chat with people from 190+ countries."
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
              <p className="eyebrow">Adults only · 18+</p>
              <h1>Random video chat and private messages with people worldwide</h1>
              <p className="hero-lead">
                Talk face to face with strangers in Video Roulette, or find someone by gender and country and chat one to one.
                Enter as a guest in seconds.
              </p>
              <ul className="hero-points">
                <li>No sign-up required</li>
                <li>Gender and country filters</li>
                <li>Anonymous chat</li>
                <li>190+ countries</li>
              </ul>
            </div>
            <AuthCard state={form} />
          </div>
        </section>
        <Marketing config={page.config} />
      </main>
      <Footer config={page.config} />
      <AgreementModal config={page.config} />
    </Document>
  );
}
