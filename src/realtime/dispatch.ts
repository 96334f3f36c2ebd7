// One frame in: rate-limit, parse, validate against the protocol, run the handler, answer the ack.
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../http/errors.ts";
import { translateError } from "../i18n/errors.ts";
import type { UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { statements } from "../messages/statements.ts";
import { messageWriter } from "../messages/writer.ts";
import { errorFields } from "../observability/log.ts";
import { activeBan } from "../moderation/bans.ts";
import { expelBanned } from "../moderation/effects.ts";
import { cachedUser } from "../users/cache.ts";
import { EncodedAck, type HandlerMap } from "./handler.ts";
import { clientEvents, SocketErrorCode, type ClientEventName } from "./protocol.ts";
import type { ClientSocket } from "./socket.ts";
import { socketLocale } from "./socket-locale.ts";
import { unavailableFor } from "../storage/unavailable.ts";
import { holdsNul, NUL_REFUSED, nulRefusalFor } from "../http/nul.ts";

type Refusal = { code: string; message: string };

function refuse(socket: ClientSocket, ack: number | undefined, event: string | undefined, refusal: Refusal): void {
  // The message in the socket's language (socket-locale.ts); the code never changes.
  const error = { ...refusal, message: translateError(refusal.message, socketLocale(socket)) };
  if (ack !== undefined) socket.sendText(JSON.stringify({ ack, error }));
  else socket.sendText(JSON.stringify({ event: "error", data: { ...error, ...(event ? { event } : {}) } }));
}

/** Like HTTP use (auth/sessions.ts), a socket in use moves its session's expiry at most once a minute. */
const TOUCH_EVERY_MS = 60_000;
const touchedAt = new WeakMap<ClientSocket, number>();

/**
 * The socket's user from the users cache (users/cache.ts): every write to a users row in this
 * process is pushed there, so a name, role or ban written here shows from the next frame, and one
 * written by another process within 2 s (the ban watcher's tick, users/cache.ts; a ban from there
 * also closes the sockets then). The session was checked when the socket opened; its revocation
 * closes the socket by a push (auth/sessions.ts onSessionsEnded), and a session row deleted by
 * another process is seen at the next touch.
 * Answers at once when the row is cached and no touch is due (always on SQLite but for the
 * minute's session check), so most frames add no await.
 */
function socketUser(app: AppContext, socket: ClientSocket, now: number): Verdict | Promise<Verdict> {
  const cached = cachedUser(app.db, socket.userId);
  if (cached instanceof Promise) return cached.then((user) => checkUser(app, socket, now, user));
  return checkUser(app, socket, now, cached);
}

type Verdict = UserRow | null | "banned";

function checkUser(app: AppContext, socket: ClientSocket, now: number, user: UserRow | undefined): Verdict | Promise<Verdict> {
  if (!user) return null;
  if (user.banned && (user.bannedUntil === null || user.bannedUntil > now)) return "banned";
  const alive = sessionAlive(app, socket, now);
  if (alive instanceof Promise) return alive.then((found) => (found ? user : null));
  return alive ? user : null;
}

/**
 * Whether the socket's session still exists: asked of the database at most once a minute (and
 * its expiry moved then, the touch); true in between, when a revocation closes the socket by a push.
 */
function sessionAlive(app: AppContext, socket: ClientSocket, now: number): boolean | Promise<boolean> {
  const last = touchedAt.get(socket);
  if (last === undefined) touchedAt.set(socket, now);
  else if (now - last > TOUCH_EVERY_MS) {
    touchedAt.set(socket, now);
    const exists = statements(app.db).sessionExists(app.db, socket.sessionId);
    if (exists instanceof Promise) return exists.then((found) => touched(app, socket, now, found));
    return touched(app, socket, now, exists);
  }
  return true;
}

function touched(app: AppContext, socket: ClientSocket, now: number, sessionExists: boolean): boolean {
  if (!sessionExists) return false;
  // The write goes with the message writer's next batch, which already takes its turn with every
  // other write: a transaction of its own here would make this per-frame check wait for a
  // commit. A touch that fails is tried again a minute later; it only moves the expiry.
  const sessionId = socket.sessionId;
  messageWriter(app.db)
    .submit((tx) => statements(tx).touchSession(tx, sessionId, now), { oneStatement: true })
    .catch(() => {});
  return true;
}

/**
 * Each event's schema compiled once to a checking function, made on first use: Value.Check walks
 * the schema on every frame. The errors of a refused frame still come from Value.Errors.
 */
const checkers = new Map<ClientEventName, TypeCheck<TSchema>>();
function checker(event: ClientEventName): TypeCheck<TSchema> {
  let found = checkers.get(event);
  if (!found) checkers.set(event, (found = TypeCompiler.Compile(clientEvents[event] as TSchema)));
  return found;
}

const isEventName = (name: unknown): name is ClientEventName => typeof name === "string" && Object.hasOwn(clientEvents, name);

/** `frame` is what Elysia parsed: an object for JSON objects, otherwise a string, number or buffer. */
export async function dispatch(app: AppContext, handlers: HandlerMap, socket: ClientSocket, frame: unknown): Promise<void> {
  const arrivedAt = performance.now();
  const now = Date.now();
  socket.lastHeardAt = now;
  const isObject = typeof frame === "object" && frame !== null && !Array.isArray(frame) && !(frame instanceof Uint8Array) && !(frame instanceof ArrayBuffer);
  const { event, data = {}, ack: rawAck } = (isObject ? frame : {}) as { event?: unknown; data?: unknown; ack?: unknown };
  const ack = Number.isSafeInteger(rawAck) ? (rawAck as number) : undefined;
  const eventName = typeof event === "string" ? event.slice(0, 64) : undefined;
  // Every frame spends the user's budget, invalid or not, so garbage cannot be sent faster than events.
  if (!app.limits.socketEvents.take(socket.userId)) {
    app.metrics.socketRefusals.ws.inc();
    return refuse(socket, ack, eventName, { code: SocketErrorCode.rateLimited, message: "Too many events. Please slow down." });
  }
  if (!isObject) return refuse(socket, undefined, undefined, { code: SocketErrorCode.invalidFrame, message: "A frame must be a JSON object" });
  if (!isEventName(event)) {
    return refuse(socket, ack, eventName, { code: SocketErrorCode.unknownEvent, message: `Unknown event "${eventName ?? ""}"` });
  }
  const schema = clientEvents[event];
  if (!checker(event).Check(data)) {
    const first = Value.Errors(schema, data).First();
    const where = first?.path ? ` at ${first.path}` : "";
    return refuse(socket, ack, event, { code: SocketErrorCode.validation, message: `Invalid data for ${event}${where}: ${first?.message ?? "wrong shape"}` });
  }
  // Shaped by its schema, so shallow: a walk of a few fields (http/nul.ts says why).
  if (holdsNul(data)) return refuse(socket, ack, event, { code: SocketErrorCode.validation, message: NUL_REFUSED });
  try {
    // Inside the try: reading the user (a cache miss, the session's touch) fails like any handler
    // when the database is away, and answers `unavailable`; outside it, the rejection went
    // unhandled and ended the process (tests/cluster/faults.test.ts).
    // A ping only keeps the socket and its session alive: it needs the session's minute check,
    // not the user's row, whose read (a miss of the users cache, emptied every 2 s on
    // PostgreSQL) was most of what thousands of idle sockets cost. A ban still closes the socket
    // by the ban watcher's push.
    if (event === "ping") {
      const alive = sessionAlive(app, socket, now);
      if (!(alive instanceof Promise ? await alive : alive)) return socket.close(4401, "Your session has ended");
      app.hub.send(socket, "pong", {});
      if (ack !== undefined) socket.sendText(JSON.stringify({ ack, data: {} }));
      return;
    }
    const found = socketUser(app, socket, now);
    const user = found instanceof Promise ? await found : found;
    if (user === "banned") {
      // A ban from another process (the moderation CLI) can be read here before the ban watcher's
      // tick: the same notice and 4403 the watcher would send, so the page shows the ban, not the
      // landing page a plain 4401 leads to.
      const ban = await activeBan(app.db, socket.userId, now);
      return ban ? await expelBanned(app, ban) : socket.close(4401, "Your session has ended");
    }
    if (!user) return socket.close(4401, "Your session has ended");
    const handler = handlers[event] as (ctx: unknown, data: unknown) => object | void | Promise<object | void>;
    const result = await handler({ app, socket, user }, data);
    if (ack !== undefined) {
      socket.sendText(result instanceof EncodedAck ? `{"ack":${ack},"data":${result.json}}` : JSON.stringify({ ack, data: result ?? {} }));
    }
    if (event === "send_message") app.metrics.messageAck.observe((performance.now() - arrivedAt) / 1000);
  } catch (thrown) {
    // A database that cannot be reached answers `unavailable` (storage/unavailable.ts).
    const error = unavailableFor(thrown) ?? nulRefusalFor(thrown) ?? thrown;
    if (error instanceof AppError) {
      const fields = error.extra.fields as Record<string, string> | undefined;
      const detail = fields && Object.values(fields)[0];
      return refuse(socket, ack, event, { code: error.code, message: detail ?? error.message });
    }
    app.log.error("socket event failed", { event, user_id: socket.userId, ...errorFields(error) });
    refuse(socket, ack, event, { code: SocketErrorCode.internal, message: "Something went wrong. Please try again." });
  }
}
