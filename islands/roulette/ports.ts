// The part of the realtime client Video Roulette uses (API.md roulette_* events), so the session
// can be tested with a fake socket.
import type { ClientEvents, ServerEvents } from "../../src/realtime/protocol.ts";

export type RouletteServerEvent =
  | "roulette_partner_found"
  | "roulette_partner_disconnected"
  | "roulette_partner_next"
  | "roulette_offer"
  | "roulette_answer"
  | "roulette_ice_candidate";

export type RouletteClientEvent =
  | "roulette_search"
  | "roulette_stop_search"
  | "roulette_next"
  | "roulette_offer"
  | "roulette_answer"
  | "roulette_ice_candidate";

export interface RouletteSocket {
  readonly connected: boolean;
  on<K extends RouletteServerEvent>(event: K, handler: (data: ServerEvents[K]) => void): () => void;
  send<K extends RouletteClientEvent>(event: K, data: ClientEvents[K]): boolean;
  /** Follows the connection: "connected", "reconnecting", "failed", ... */
  onStatus(listener: (status: string) => void): () => void;
}
