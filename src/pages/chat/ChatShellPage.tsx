// The signed-in user's page at "/": the layout plus the ChatApp island, which draws the whole
// chat screen. No header or footer: the island fills the viewport (less the cookie banner while it
// waits for an answer: public/styles/base.css).
import { Document } from "../layout/Document.tsx";
import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { Island } from "./Island.tsx";
import { NoScriptNotice } from "./NoScriptNotice.tsx";
import type { RenderedIsland } from "./islands.ts";

export function ChatShellPage({ page, chat }: { page: PageInfo; chat: RenderedIsland<"ChatApp"> }) {
  return (
    <Document page={page} title={page.t("page.title_chat")} styles={["base"]} scripts={["client"]} islands={[chat.name]} bodyClass="page-chat" noIndex>
      <main id="main" className="chat-main">
        <h1 className="sr-only">{SITE_NAME}</h1>
        <NoScriptNotice page={page} />
        <Island island={chat} />
      </main>
    </Document>
  );
}
