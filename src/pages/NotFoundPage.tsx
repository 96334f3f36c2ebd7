import { Document } from "./layout/Document.tsx";
import { Footer } from "./layout/Footer.tsx";
import { Header } from "./layout/Header.tsx";
import type { PageInfo } from "./page-info.ts";

export function NotFoundPage({ page }: { page: PageInfo }) {
  const { t } = page;
  return (
    <Document page={page} title={t("notfound.title")} styles={["base", "site"]} bodyClass="page-404" noIndex>
      <Header />
      <main id="main" className="container not-found">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>{t("notfound.title")}</h1>
        <p>
          {`${t("notfound.before")} `}<code>{page.path}</code>{t("notfound.after")}
        </p>
        <a className="btn btn-primary" href="/">
          {t("notfound.home")}
        </a>
      </main>
      <Footer config={page.config} path={page.path} />
    </Document>
  );
}
