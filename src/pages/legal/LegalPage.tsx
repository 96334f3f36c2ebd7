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
  return (
    <Document page={page} title={title} description={description} styles={["base", "site"]} bodyClass="page-legal">
      <Header>
        <nav className="header-nav" aria-label="Legal">
          {legalLinks.map((link) => (
            <a key={link.href} href={link.href} aria-current={page.path === link.href ? "page" : undefined}>
              {link.label.replace("Terms of User Agreement", "Terms").replace("18 U.S.C. 2257 Compliance", "2257")}
            </a>
          ))}
        </nav>
      </Header>
      <main id="main" className="container legal">
        <article>
          <h1>{title}</h1>
          <p className="legal-updated">Last updated: {LEGAL_UPDATED}</p>
          {children}
        </article>
      </main>
      <Footer config={page.config} />
    </Document>
  );
}
