// The moderation console under /mod: server-rendered pages and their form posts. Whoever is not
// a moderator or an admin gets the site's 404 for every path, before anything else is read.
// A post must come from our own origin and carry the session's CSRF token; it answers 303 back
// to the page with a one-line note, or the page again with the reason it was refused.
import { Elysia } from "elysia";
import type { ReactElement } from "react";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { isSecure, originAllowed } from "../../http/request.ts";
import { pageInfo } from "../page-info.ts";
import { htmlResponse, seeOther } from "../render.tsx";
import { actorOf, hiddenConsole, viewerOf, type Viewer } from "./access.tsx";
import { ModPage } from "./components/ModPage.tsx";
import { csrfToken, csrfValid, CSRF_FIELD } from "./csrf.ts";
import { errorText } from "./error-text.ts";
import { clearedModFlash, modFlashCookie, modFlashOf } from "./flash.ts";
import { FormError, positiveId, readForm } from "./form.ts";
import { modPage } from "./pages.tsx";
import { postActions } from "./posts.ts";
import { stillResponse } from "./still.ts";
import type { ModView } from "./view.ts";

/** A page of the console to return to after a post: a path under /mod, nothing else. */
const safeBack = (value: string | null): string | null =>
  value && value.length <= 300 && /^\/mod(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_\-=&%.+]*)?$/.test(value) && !value.includes("//") ? value : null;

export function modRoutes(ctx: AppContext) {
  const viewFor = (request: Request, viewer: Viewer, path: string, extra: Partial<ModView> = {}): ModView => ({
    page: pageInfo(ctx.config, request, path),
    viewer,
    csrf: csrfToken(ctx.config.secret, viewer.sessionId),
    now: Date.now(),
    flash: null,
    error: null,
    ...extra,
  });

  const render = (element: ReactElement, status = 200, cookies: string[] = []) => htmlResponse(element, { status, noStore: true, cookies });

  /** A short page explaining why a post was refused before it reached an action. */
  const refusal = (request: Request, viewer: Viewer, status: number, title: string, text: string) =>
    render(
      <ModPage view={viewFor(request, viewer, new URL(request.url).pathname, { error: text })} title={title}>
        <p>
          <a href="/mod">Back to the console</a>
        </p>
      </ModPage>,
      status,
    );

  async function get(request: Request): Promise<Response> {
    const viewer = await viewerOf(ctx, request);
    if (!viewer) return hiddenConsole(ctx, request);
    const url = new URL(request.url);
    const flash = modFlashOf(request);
    const page = await modPage(ctx, viewFor(request, viewer, url.pathname, { flash }), url);
    if (!page) return hiddenConsole(ctx, request);
    return render(page, 200, flash ? [clearedModFlash(isSecure(request, ctx.config))] : []);
  }

  async function post(request: Request): Promise<Response> {
    const viewer = await viewerOf(ctx, request);
    if (!viewer) return hiddenConsole(ctx, request);
    const path = new URL(request.url).pathname;
    const found = postActions.map((a) => ({ action: a, match: a.pattern.exec(path) })).find((f) => f.match !== null);
    const id = found?.match?.[1] === undefined ? 0 : positiveId(found.match[1]);
    if (!found || id === null) return hiddenConsole(ctx, request);
    const { action } = found;
    if (!originAllowed(request, ctx.config)) {
      return refusal(request, viewer, 403, "Form refused", "This form was sent from another site. Open the console and try again there.");
    }
    let form: URLSearchParams;
    try {
      form = await readForm(request);
    } catch (error) {
      if (error instanceof FormError) return refusal(request, viewer, error.status, "Form refused", error.message);
      throw error;
    }
    if (!csrfValid(ctx.config.secret, viewer.sessionId, form.get(CSRF_FIELD))) {
      return refusal(request, viewer, 403, "Form expired", "This form is out of date or did not come from the console. Reload the page and try again.");
    }
    const back = safeBack(form.get("back")) ?? action.home(id);
    try {
      const done = await action.run({ ctx, actor: actorOf(viewer), id, form });
      return seeOther(back, [modFlashCookie(done, isSecure(request, ctx.config))]);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const url = new URL(back, "http://localhost");
      const page = await modPage(ctx, viewFor(request, viewer, url.pathname, { error: errorText(error), posted: form }), url);
      if (!page) return refusal(request, viewer, error.status, "Action refused", errorText(error));
      return render(page, error.status);
    }
  }

  return new Elysia()
    .get("/mod", ({ request }) => get(request))
    .get("/mod/*", ({ request }) => get(request))
    .get("/mod/reports/:id/still", async ({ request, params }) => {
      const viewer = await viewerOf(ctx, request);
      const id = positiveId(params.id);
      return (viewer && id !== null ? await stillResponse(ctx, id) : null) ?? hiddenConsole(ctx, request);
    })
    .post("/mod", ({ request }) => post(request), { parse: "none" })
    .post("/mod/*", ({ request }) => post(request), { parse: "none" });
}
