// Whether one user is online as another may know it (issue 18): people in a conversation with the
// user are told at once (after the grace); anyone else only what the batched presence shows
// (public-presence.ts), so no path gives a stranger a finer clock than the people list.
import type { AppContext } from "../context.ts";

export function onlineAsSeenBy(ctx: Pick<AppContext, "contacts" | "hub">, viewerId: number, subjectId: number): boolean {
  return ctx.contacts.talked(subjectId, viewerId) ? ctx.hub.isOnline(subjectId) : ctx.hub.isShown(subjectId);
}
