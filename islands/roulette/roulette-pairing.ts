// What two strangers can do besides video (issue 7): the pairing's text chat and "Keep in touch".
// Both are addressed by the pairing's opaque id and belong to that pairing only (the reducer
// clears them when it ends). The server tells both people only once both pressed Keep in touch.
import type { PublicUser } from "../../src/realtime/protocol.ts";
import type { RouletteSocket } from "./ports.ts";
import { sendableText } from "./roulette-state.ts";
import type { RouletteStore } from "./roulette-store.ts";

export interface PairingDeps {
  store: RouletteStore;
  socket: RouletteSocket;
  /** Both partners chose to keep in touch: here is the other one's public user. */
  onContact?: (user: PublicUser) => void;
}

export class RoulettePairing {
  private textIds = 0;

  constructor(private readonly deps: PairingDeps) {}

  /** Listens to the stranger's lines and to the mutual Keep in touch; returns the ways to stop. */
  listen(): (() => void)[] {
    const { socket } = this.deps;
    return [
      socket.on("roulette_text", ({ text, at }) => this.addText(false, text, at)),
      socket.on("roulette_contact", ({ user }) => this.deps.onContact?.(user)),
    ];
  }

  /** Sends a line of the text chat; false when there is nobody to send it to or nothing to send. */
  sendText(text: string): boolean {
    const { store, socket } = this.deps;
    const partnerId = store.partnerId;
    const content = sendableText(text);
    if (!partnerId || !content || store.state.status !== "connected") return false;
    if (!socket.send("roulette_text", { partnerId, text: content })) return false;
    this.addText(true, content, new Date().toISOString());
    return true;
  }

  /** Only I see my own press until the partner presses too. */
  keepInTouch(): void {
    const { store, socket } = this.deps;
    const partnerId = store.partnerId;
    if (!partnerId || store.state.status !== "connected" || store.state.keepInTouch) return;
    if (socket.send("roulette_keep_in_touch", { partnerId })) store.update({ type: "keep_in_touch" });
  }

  private addText(mine: boolean, text: string, at: string): void {
    // A line that arrives between pairings belongs to nobody on screen.
    if (!this.deps.store.state.partner) return;
    this.deps.store.update({ type: "text", message: { id: ++this.textIds, mine, text, at } });
  }
}
