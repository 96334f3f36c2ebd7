// The frame of the four legal pages: header, the document, footer. Plain HTML, no script
// besides the cookie banner's.
import type { ReactNode } from "react";
import { Document } from "../layout/Document.tsx";
import { Footer, legalLinks } from "../layout/Footer.tsx";
import { Header } from "../layout/Header.tsx";
import type { PageInfo } from "../page-info.ts";

/** When the texts last changed; shown on every legal page. */
export const LEGAL_UPDATED = "23 November 2026";

export function LegalPage({ page, title, description, children }: { page: PageInfo; title: string; description: string; children: ReactNode }) {
  const { t } = page;
  // The legal texts stay English; other languages get one line saying the English text binds.
  const binding = t("legal.binding");
  return (
    <Document page={page} title={title} description={description} styles={["base", "site"]} bodyClass="page-legal">
      <Header>
        <nav className="header-nav" aria-label={t("legal.nav")}>
          {legalLinks(t).map((link) => (
            <a key={link.href} href={link.href} aria-current={page.path === link.href ? "page" : undefined}>
              {link.short ?? link.label}
            </a>
          ))}
        </nav>
      </Header>
      <main id="main" className="container legal">
        {binding ? (
          <p className="legal-binding" role="note">
            {binding}
          </p>
        ) : null}
        <article lang="en" dir="ltr">
          <h1>{title}</h1>
          <p className="legal-updated">{t("legal.updated", { date: LEGAL_UPDATED })}</p>
          {children}
        </article>
      </main>
      <Footer config={page.config} path={page.path} />
    </Document>
  );
}
