// What a ban or "end sessions now" does to a user who is connected: sessions revoked, the ban
// notice on every open /ws socket, then every socket closed (4403 for a ban) here and on /peerjs.
// Closing runs the hub's one close path, which ends the roulette pair or queue entry and any call
// and announces user_offline. The console calls this at once; the watcher for command-line bans.
import type { BanRow } from "../storage/tables.ts";
import { revokeUserSessions } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { banNotice } from "./bans.ts";
import { encodeEvent } from "../realtime/hub.ts";

export const BANNED_CLOSE = { code: 4403, reason: "Banned" } as const;
export const ENDED_CLOSE = { code: 4401, reason: "Your session was ended by a moderator" } as const;

type EffectContext = Pick<AppContext, "db" | "hub" | "config">;

export async function expelBanned(ctx: EffectContext, ban: BanRow): Promise<void> {
  // Expelled before the rows go: revoking closes the sessions' sockets too (4401), and these
  // must close with the ban's code after its notice.
  ctx.hub.expel(ban.userId, BANNED_CLOSE.code, BANNED_CLOSE.reason, encodeEvent("banned", banNotice(ctx, ban)));
  await revokeUserSessions(ctx.db, ban.userId);
}

export async function expelSessions(ctx: EffectContext, userId: number): Promise<number> {
  ctx.hub.expel(userId, ENDED_CLOSE.code, ENDED_CLOSE.reason);
  return (await revokeUserSessions(ctx.db, userId)).length;
}
