import { Document } from "./layout/Document.tsx";
import { Footer } from "./layout/Footer.tsx";
import { Header } from "./layout/Header.tsx";
import type { PageInfo } from "./page-info.ts";

export function NotFoundPage({ page }: { page: PageInfo }) {
  return (
    <Document page={page} title="Page not found" styles={["base", "site"]} bodyClass="page-404" noIndex>
      <Header />
      <main id="main" className="container not-found">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p>
          There is nothing at <code>{page.path}</code>. The link may be old, or the address may have a typo.
        </p>
        <a className="btn btn-primary" href="/">
          Go to the home page
        </a>
      </main>
      <Footer config={page.config} />
    </Document>
  );
}
