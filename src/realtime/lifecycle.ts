// What happens when a socket opens or closes, in one place: presence saved and announced to those
// who should hear it,
// waiting messages delivered, and a closing tab's call and roulette pair ended.
import type { AppContext } from "../context.ts";
import { endCallOfClosedSocket, endCallOfExpelled, ringNewTab } from "../calls/endings.ts";
import { announceDelivered } from "../messages/notify.ts";
import { deliverPending } from "../messages/service.ts";
import { messageWriter } from "../messages/writer.ts";
import { cachedUser } from "../users/cache.ts";
import { setPresence } from "../users/service.ts";
import { leaveRoulette } from "./handlers/roulette.ts";
import type { ClientSocket } from "./socket.ts";
import { engine, transaction } from "../storage/index.ts";
import type { UserRow } from "../storage/tables.ts";
import { PresenceRows } from "./presence-rows.ts";
import { wireSharedCaps } from "./shared-caps.ts";
import { logFailure } from "../storage/unavailable.ts";

/** Per context: the socket-cap slot a socket takes over every instance (null with one process). */
const claims = new WeakMap<AppContext, ((socket: ClientSocket) => void) | null>();

export function wireLifecycle(ctx: AppContext): void {
  claims.set(ctx, wireSharedCaps(ctx));
  const named = withNames(ctx);
  // At once (after the grace), to the people with a conversation with the user (a message either
  // way), as the contract has it: they know the account already.
  // Called only when the announced presence changes (hub.ts, presence.ts), so a flapping account
  // neither floods anyone nor rewrites its row. People kept apart by a block never hear about each
  // other's presence.
  ctx.hub.onPresence((userId, online) => {
    const partnersOnly = { watchers: false };
    named(
      userId,
      (name) => ctx.hub.sendAbout(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), online ? "user_online" : "user_offline", () => ({ userId, name: name() }), partnersOnly),
      () => ctx.hub.hasAudience(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), partnersOnly),
    );
  });
  // Everyone else who may hear it (watchers without a conversation) hears it in
  // the next batch (public-presence.ts), and the users row, which every list and profile reads,
  // changes with that batch and carries its time as last_seen: timing a roulette partner's
  // departure against a list must not name their account (issue 18).
  // The frames leave once the rows have committed (or the write was refused: the rows follow with
  // a later write, presence-rows.ts), so a list read on hearing one shows the change.
  const rows = new PresenceRows(
    (changes) =>
      transaction(ctx.db, async (tx) => {
        for (const [userId, { online, at }] of changes) await setPresence(tx, userId, online, at);
      }),
    (what, error) => logFailure(ctx.log, `presence batch ${what}`, error),
  );
  ctx.hub.onPublicPresence((changes, at) => void rows.save(changes, at, () => announcePublic(changes)));
  ctx.hub.onCloseAll(() => rows.stop());
  function announcePublic(changes: ReadonlyMap<number, boolean>): void {
    for (const [userId, online] of changes) {
      const to = () => ({ skip: ctx.contacts.partnersOf(userId) });
      named(
        userId,
        (name) => ctx.hub.sendAbout(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), online ? "user_online" : "user_offline", () => ({ userId, name: name() }), to()),
        () => ctx.hub.hasAudience(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), to()),
      );
    }
  }

  // A ban or ended sessions end a call at once, ringing or not: nobody can time that at will.
  ctx.hub.onExpel((userId) => endCallOfExpelled(ctx, userId));

  ctx.hub.onClose((socket, lastOfUser) => {
    if (ctx.roulette.socketOf(socket.userId) === socket) leaveRoulette(ctx, socket.userId, "roulette_partner_disconnected");
    endCallOfClosedSocket(ctx, socket, lastOfUser);
  });
}

/**
 * Runs `send` with the user's name from the user cache (synchronous on SQLite, as the socket
 * handlers read users): there the frame is built, and the name read, only when someone hears it.
 * On PostgreSQL a miss is a read (a presence change forgets the row, so it often is), made only
 * when `hears` says someone would (otherwise every idle socket's opening would read and cache its
 * user's row), and the frames of one user wait for each other's reads: presence frames leave in
 * the order the changes happened on both engines.
 */
function withNames(ctx: AppContext): (userId: number, send: (name: () => string) => void, hears: () => boolean) => void {
  if (engine === "sqlite") {
    return (userId, send) => send(() => (cachedUser(ctx.db, userId) as UserRow | undefined)?.name ?? "");
  }
  const queued = new Map<number, Promise<void>>();
  return (userId, send, hears) => {
    const before = queued.get(userId);
    // With a frame of this user still waiting, this one waits behind it and is sent (or not) then.
    if (!before && !hears()) return;
    const found = cachedUser(ctx.db, userId);
    if (!before && !(found instanceof Promise)) return send(() => found?.name ?? "");
    // Read now, used once the frame before is sent: a failure meanwhile (the database away) must
    // not count as unhandled, which would end the process; it is handled below (no name).
    if (found instanceof Promise) found.catch(() => {});
    const sent = (before ?? Promise.resolve())
      .then(() => found)
      .then(
        (row) => send(() => row?.name ?? ""),
        () => send(() => ""),
      );
    queued.set(userId, sent);
    void sent.finally(() => {
      if (queued.get(userId) === sent) queued.delete(userId);
    });
  };
}

/** A new socket: registered (presence), then everything sent while away is delivered. */
export function socketOpened(ctx: AppContext, socket: ClientSocket): void {
  ctx.hub.connect(socket);
  claims.get(ctx)?.(socket);
  // A tab opened (from the notification, say) while a call rings by push, or rings for someone who
  // had no tab open when it was placed, rings too.
  ringNewTab(ctx, socket);
  // Marked in the message writer's next batch, told once committed: Bun calls this synchronously
  // as the socket opens, the batch takes its turn with every other write, and the openings of a
  // reconnecting crowd share one commit instead of a transaction each.
  const at = Date.now();
  messageWriter(ctx.db)
    .submit((tx) => deliverPending(tx, socket.userId, at))
    .then(
      (delivered) => announceDelivered(ctx, delivered),
      (error: unknown) => logFailure(ctx.log, "waiting messages not marked delivered", error, { user_id: socket.userId }),
    );
}
