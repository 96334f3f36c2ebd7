// The chat screen with JavaScript off: the island's server render (skeleton rows, "Loading...")
// would wait forever, so it is hidden and the visitor is told plainly what is needed. Both live
// in <noscript>, whose content a browser only parses when it runs no scripts; the inline style
// relies on the page policy's style-src 'unsafe-inline' (src/pages/layout/security.ts).
import { SITE_NAME } from "../page-info.ts";

export function NoScriptNotice() {
  return (
    <noscript>
      <style>{".page-chat .island { display: none; }"}</style>
      <section className="noscript-note" aria-labelledby="noscript-title">
        <h2 id="noscript-title">The chat needs JavaScript</h2>
        <p>
          You are signed in, but messages, the user list and calls on {SITE_NAME} run in your browser. Turn JavaScript on for this site
          and reload the page.
        </p>
        <form method="post" action="/auth/logout">
          <button className="btn btn-secondary" type="submit">
            Log out
          </button>
        </form>
      </section>
    </noscript>
  );
}
