// Who may see the console: a live session (the httpOnly cookie) whose user is a moderator or an
// admin. Everyone else gets the site's ordinary 404, so the console's existence is not revealed.
import { sessionFor } from "../../auth/service.ts";
import type { AppContext } from "../../context.ts";
import { sessionCookieOf } from "../../http/request.ts";
import type { Actor } from "../../moderation/actions.ts";
import { NotFoundPage } from "../NotFoundPage.tsx";
import { pageInfo } from "../page-info.ts";
import { htmlResponse } from "../render.tsx";

export type ModRole = "moderator" | "admin";

export interface Viewer {
  sessionId: string;
  id: number;
  username: string;
  role: ModRole;
}

export const isModRole = (role: string): role is ModRole => role === "moderator" || role === "admin";

export async function viewerOf(ctx: AppContext, request: Request): Promise<Viewer | null> {
  const session = await sessionFor(ctx.db, ctx.config, sessionCookieOf(request));
  if (!session || !isModRole(session.user.role)) return null;
  return { sessionId: session.id, id: session.user.id, username: session.user.username, role: session.user.role };
}

export const actorOf = (viewer: Viewer): Actor => ({ id: viewer.id, role: viewer.role });

/** The same page an unknown address gets, for GET and POST alike. */
export const hiddenConsole = (ctx: AppContext, request: Request): Response =>
  htmlResponse(<NotFoundPage page={pageInfo(ctx.config, request)} />, { status: 404 });
