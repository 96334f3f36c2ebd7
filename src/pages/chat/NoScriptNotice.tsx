// The chat screen with JavaScript off: the island's server render (skeleton rows, "Loading...")
// would wait forever, so it is hidden and the visitor is told plainly what is needed. Both live
// in <noscript>, whose content a browser only parses when it runs no scripts; the inline style
// relies on the page policy's style-src 'unsafe-inline' (src/pages/layout/security.ts).
import { SITE_NAME, type PageInfo } from "../page-info.ts";

export function NoScriptNotice({ page }: { page: PageInfo }) {
  const { t } = page;
  return (
    <noscript>
      <style>{".page-chat .island { display: none; }"}</style>
      <section className="noscript-note" aria-labelledby="noscript-title">
        <h2 id="noscript-title">{t("noscript.title")}</h2>
        <p>
          {t("noscript.text", { site: SITE_NAME })}
        </p>
        <form method="post" action="/auth/logout">
          <button className="btn btn-secondary" type="submit">
            {t("noscript.logout")}
          </button>
        </form>
      </section>
    </noscript>
  );
}
