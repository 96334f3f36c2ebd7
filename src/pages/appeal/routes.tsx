// /appeal/:token: the ban's reason and end and its one appeal, reached from the ban notice at
// login and from the ban page. No session (a banned user has none): the signed token is the key,
// so an invalid one is a plain 404. Posts must come from our own origin and are limited per
// address, since anyone holding a link could otherwise hammer the form.
import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { clientAddress, originAllowed } from "../../http/request.ts";
import { WindowCounter } from "../../http/rate-limit.ts";
import { activeBan, appealFor, appealUrl, banIdOfAppealToken, fileAppeal } from "../../moderation/actions.ts";
import type { BanRow } from "../../storage/tables.ts";
import { findBan } from "../../moderation/queries/people.ts";
import { translateError } from "../../i18n/errors.ts";
import { errorText } from "../mod/error-text.ts";
import { FormError, readForm } from "../mod/form.ts";
import { NotFoundPage } from "../NotFoundPage.tsx";
import { pageInfo } from "../page-info.ts";
import { htmlResponse, seeOther } from "../render.tsx";
import { AppealPage } from "./AppealPage.tsx";

/** Appeal posts an address may send in an hour: enough for typing mistakes, not for a flood. */
export const APPEAL_POSTS_PER_HOUR = 10;

export function appealRoutes(ctx: AppContext) {
  const posts = new WindowCounter(APPEAL_POSTS_PER_HOUR, 60 * 60_000);

  const banOf = async (token: string) => {
    const banId = banIdOfAppealToken(ctx.config.secret, token);
    return banId === null ? undefined : await findBan(ctx.db, banId);
  };

  /** The page for this ban; a newer ban in force (a replacement) gets a link to its own page. */
  const appealPage = async (request: Request, ban: BanRow, extra: { error?: string; text?: string } = {}) => {
    const now = Date.now();
    const current = await activeBan(ctx.db, ban.userId, now);
    const currentBanUrl = current && current.id !== ban.id ? appealUrl(ctx.config.secret, current.id) : null;
    return <AppealPage page={pageInfo(ctx.config, request)} ban={ban} appeal={await appealFor(ctx.db, ban.id)} now={now} currentBanUrl={currentBanUrl} {...extra} />;
  };

  const notFound = (request: Request) => htmlResponse(<NotFoundPage page={pageInfo(ctx.config, request)} />, { status: 404 });

  return new Elysia()
    .get("/appeal/:token", async ({ request, params }) => {
      const ban = await banOf(params.token);
      if (!ban) return notFound(request);
      return htmlResponse(await appealPage(request, ban), { noStore: true });
    })
    .post(
      "/appeal/:token",
      async ({ request, params, server }) => {
        const ban = await banOf(params.token);
        if (!ban) return notFound(request);
        const answer = async (status: number, error: string, text?: string) => htmlResponse(await appealPage(request, ban, { error, text }), { status, noStore: true });
        const { t, locale } = pageInfo(ctx.config, request);
        if (!originAllowed(request, ctx.config)) return answer(403, t("appeal.foreign_form"));
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
        if (!posts.take(address)) {
          const response = await answer(429, t("appeal.too_many"));
          response.headers.set("retry-after", String(Math.max(1, Math.ceil(posts.retryAfter(address)))));
          return response;
        }
        let text = "";
        try {
          text = (await readForm(request)).get("text") ?? "";
          await fileAppeal(ctx, params.token, text);
        } catch (error) {
          if (error instanceof FormError) return answer(error.status, error.problem === "too_large" ? t("appeal.form_too_large") : t("appeal.form_type"));
          if (error instanceof AppError) return answer(error.status, translateError(errorText(error), locale), text.slice(0, 1000));
          throw error;
        }
        return seeOther(new URL(request.url).pathname);
      },
      { parse: "none" },
    );
}
