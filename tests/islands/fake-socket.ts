// A WebSocket stand-in for the realtime client's tests (islands/lib/socket.ts): the test opens,
// fails and feeds it by hand, and reads what the client sent.
import type { SocketLike } from "../../islands/lib/socket.ts";

/** A socket the test opens, closes and talks through by hand. */
export class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor(readonly url = "") {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  fail(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  receive(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) } as MessageEvent);
  }
  frames() {
    return this.sent.map((s) => JSON.parse(s) as { event: string; data: unknown; ack?: number });
  }
}
