// The part of the realtime client Video Roulette uses (API.md roulette_* events), so the session
// can be tested with a fake socket.
import type { ClientEvents, ServerEvents } from "../../src/realtime/protocol.ts";

export type RouletteServerEvent =
  | "roulette_partner_found"
  | "roulette_partner_disconnected"
  | "roulette_partner_next"
  | "roulette_offer"
  | "roulette_answer"
  | "roulette_ice_candidate"
  | "roulette_text"
  | "roulette_contact";

export type RouletteClientEvent =
  | "roulette_search"
  | "roulette_stop_search"
  | "roulette_next"
  | "roulette_offer"
  | "roulette_answer"
  | "roulette_ice_candidate"
  | "roulette_text"
  | "roulette_keep_in_touch";

export interface RouletteSocket {
  readonly connected: boolean;
  on<K extends RouletteServerEvent>(event: K, handler: (data: ServerEvents[K]) => void): () => void;
  send<K extends RouletteClientEvent>(event: K, data: ClientEvents[K]): boolean;
  /** The search asks for an answer: the server may refuse it (suspended, adult_confirmation_required). */
  request<K extends RouletteClientEvent>(event: K, data: ClientEvents[K]): Promise<unknown>;
  /** Follows the connection: "connected", "reconnecting", "failed", ... */
  onStatus(listener: (status: string) => void): () => void;
}
