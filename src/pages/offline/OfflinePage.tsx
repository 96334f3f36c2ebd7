// "You are offline" (issue 26): the page the service worker keeps and shows for any page of the
// site while there is no network. The same for everyone (fetched without cookies), so it holds
// nothing of a session; its script reloads it when the network is back.
import { Document } from "../layout/Document.tsx";
import { Header } from "../layout/Header.tsx";
import { SITE_NAME, type PageInfo } from "../page-info.ts";

export function OfflinePage({ page }: { page: PageInfo }) {
  const { t } = page;
  return (
    <Document page={page} title={t("offline.title")} styles={["base", "site"]} scripts={["offline"]} bodyClass="page-offline" noIndex>
      <Header />
      <main id="main" className="container offline">
        <svg className="offline-mark" viewBox="0 0 24 24" width="64" height="64" aria-hidden="true">
          <path d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          <circle cx="12" cy="19" r="1.5" fill="currentColor" />
          <path d="M3 3l18 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <h1>{t("offline.title")}</h1>
        <p>{t("offline.text", { site: SITE_NAME })}</p>
        <a className="btn btn-primary" href="/">
          {t("offline.retry")}
        </a>
      </main>
    </Document>
  );
}
