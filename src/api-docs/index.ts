// GET /api/openapi.json and GET /api/docs. Both are public: they describe what the web client
// already shows anyone who opens it, and nothing of the moderation console, the configuration or
// anyone's data. Both are made once, on the first request (the routes are fixed by then), so
// asking again costs a copy and needs no rate limit.
import { Type as t } from "@sinclair/typebox";
import { Elysia, type AnyElysia } from "elysia";
import { htmlResponse } from "../pages/render.tsx";
import { buildApiDocument } from "./document.ts";
import { operation } from "./operation.ts";
import { DocsPage, type PageDocument } from "./DocsPage.tsx";

const hidden = { detail: { hide: true } };

function apiDocRoutes(app: AnyElysia) {
  let made: { json: string; page: Response } | null = null;
  const once = () => {
    if (made) return made;
    const json = JSON.stringify(buildApiDocument(app));
    // The page reads the very JSON that is served, so the two cannot disagree.
    const document: PageDocument = JSON.parse(json);
    made = { json, page: htmlResponse(DocsPage({ document })) };
    return made;
  };
  return new Elysia()
    .get(
      "/api/openapi.json",
      () => new Response(once().json, { headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" } }),
      hidden,
    )
    .get("/api/docs", () => once().page.clone(), hidden);
}

/** GET /healthz lives in app.ts, beside nothing else. */
export const healthDetail = operation({
  tag: "Health",
  summary: "Is the server up",
  public: true,
  ok: { description: "Up", schema: t.Object({ ok: t.Literal(true) }) },
});

/** A function plugin: Elysia hands it the app itself, whose routes the document is made from. */
export const apiDocs = (app: AnyElysia) => app.use(apiDocRoutes(app));
