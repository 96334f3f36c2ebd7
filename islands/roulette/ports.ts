// The part of the realtime client Video Roulette uses (API.md roulette_* events), so the session
// can be tested with a fake socket.
import type { ClientEvents, ServerEvents } from "../../src/realtime/protocol.ts";

// Read from the protocol rather than listed again, so a roulette event added there reaches the
// port (and its fake in the tests) without a second list to keep in step.
export type RouletteServerEvent = Extract<keyof ServerEvents, `roulette_${string}`>;
export type RouletteClientEvent = Extract<keyof ClientEvents, `roulette_${string}`>;

export interface RouletteSocket {
  readonly connected: boolean;
  on<K extends RouletteServerEvent>(event: K, handler: (data: ServerEvents[K]) => void): () => void;
  send<K extends RouletteClientEvent>(event: K, data: ClientEvents[K]): boolean;
  /** The search asks for an answer: the server may refuse it (suspended, adult_confirmation_required). */
  request<K extends RouletteClientEvent>(event: K, data: ClientEvents[K]): Promise<unknown>;
  /** Follows the connection: "connected", "reconnecting", "failed", ... */
  onStatus(listener: (status: string) => void): () => void;
}
