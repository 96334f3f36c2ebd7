// The shape of an event handler. A handler returns the ack's data (or nothing) and throws
// AppError for a refusal; the dispatcher turns that into the ack's error or an `error` event.
import type { UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import type { ClientEventName, ClientEvents } from "./protocol.ts";
import type { ClientSocket } from "./socket.ts";

export interface HandlerContext {
  app: AppContext;
  socket: ClientSocket;
  /** The signed-in user, as last written (users/cache.ts). */
  user: UserRow;
}

export type Handler<K extends ClientEventName> = (ctx: HandlerContext, data: ClientEvents[K]) => object | void | Promise<object | void>;

/** Every event but `ping`, which the dispatcher answers itself: it needs no user row (dispatch.ts). */
export type UserEventName = Exclude<ClientEventName, "ping">;

export type HandlerMap<K extends ClientEventName = UserEventName> = { [E in K]: Handler<E> };

/**
 * Ack data already encoded as JSON: a handler that has encoded what it answers (send_message's
 * message) returns this, and the dispatcher splices it into the ack.
 */
export class EncodedAck {
  constructor(readonly json: string) {}
}

/** Client ids may arrive as numeric strings; handlers work with numbers. */
export const toId = (id: number | string): number => (typeof id === "number" ? id : Number(id));
