// The marker islands/client.ts looks for: a wrapper carrying the island's name with its HTML
// inside, and its props as JSON in a script element next to it.
import { jsonForScript } from "../layout/Document.tsx";
import { useT } from "../../i18n/react.tsx";
import type { RenderedIsland } from "./islands.ts";

export function Island({ island }: { island: RenderedIsland }) {
  const id = `island-${island.name}`;
  const t = useT();
  return (
    <>
      {island.html === null ? (
        <div id={id} className="island" data-island={island.name} data-ssr="0">
          <p className="island-loading" role="status">
            {t("page.loading")}
          </p>
        </div>
      ) : (
        <div id={id} className="island" data-island={island.name} data-ssr="1" dangerouslySetInnerHTML={{ __html: island.html }} />
      )}
      <script type="application/json" id={`${id}-props`} dangerouslySetInnerHTML={{ __html: jsonForScript(island.props) }} />
    </>
  );
}
