// One frame in: rate-limit, parse, validate against the protocol, run the handler, answer the ack.
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../http/errors.ts";
import { liveSession } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { errorFields } from "../observability/log.ts";
import type { HandlerMap } from "./handler.ts";
import { clientEvents, SocketErrorCode, type ClientEventName } from "./protocol.ts";
import type { ClientSocket } from "./socket.ts";

type Refusal = { code: string; message: string };

function refuse(socket: ClientSocket, ack: number | undefined, event: string | undefined, error: Refusal): void {
  if (ack !== undefined) socket.sendText(JSON.stringify({ ack, error }));
  else socket.sendText(JSON.stringify({ event: "error", data: { ...error, ...(event ? { event } : {}) } }));
}

const isEventName = (name: unknown): name is ClientEventName => typeof name === "string" && Object.hasOwn(clientEvents, name);

/** `frame` is what Elysia parsed: an object for JSON objects, otherwise a string, number or buffer. */
export async function dispatch(app: AppContext, handlers: HandlerMap, socket: ClientSocket, frame: unknown): Promise<void> {
  const arrivedAt = performance.now();
  socket.lastHeardAt = Date.now();
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
  if (!Value.Check(schema, data)) {
    const first = Value.Errors(schema, data).First();
    const where = first?.path ? ` at ${first.path}` : "";
    return refuse(socket, ack, event, { code: SocketErrorCode.validation, message: `Invalid data for ${event}${where}: ${first?.message ?? "wrong shape"}` });
  }
  // Revocations made anywhere (logout, a ban from the command line) end the socket here too.
  const user = liveSession(app.db, socket.sessionId, app.config.sessionTtlMs)?.user;
  if (!user) return socket.close(4401, "Your session has ended");
  try {
    const handler = handlers[event] as (ctx: unknown, data: unknown) => object | void | Promise<object | void>;
    const result = await handler({ app, socket, user }, data);
    if (ack !== undefined) socket.sendText(JSON.stringify({ ack, data: result ?? {} }));
    if (event === "send_message") app.metrics.messageAck.observe((performance.now() - arrivedAt) / 1000);
  } catch (error) {
    if (error instanceof AppError) {
      const fields = error.extra.fields as Record<string, string> | undefined;
      const detail = fields && Object.values(fields)[0];
      return refuse(socket, ack, event, { code: error.code, message: detail ?? error.message });
    }
    app.log.error("socket event failed", { event, user_id: socket.userId, ...errorFields(error) });
    refuse(socket, ack, event, { code: SocketErrorCode.internal, message: "Something went wrong. Please try again." });
  }
}
