// The always-loaded call layer: it opens the lazily loaded overlay on the chat header's
// start-call event and on the socket's incoming_call, and ignores anything malformed.
import { reactRoot, unregisterDom } from "../support/dom.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { act, useState } from "react";
import CallLayer, { START_CALL_EVENT, startRequest } from "../../islands/calls/CallLayer.tsx";
import { UNSUPPORTED_BROWSER_ALERT } from "../../islands/media/errors.ts";
import { ChatContext } from "../../islands/chat/context.ts";
import { harness } from "../islands/harness.ts";
import { me } from "../islands/fixtures.ts";
import { FakeSocket } from "./fakes.ts";
import { FakeSocket as FakeWebSocket } from "../islands/fake-socket.ts";
import { startRealtime, type RealtimeClient } from "../../islands/lib/socket.ts";
import type { VideoSocket } from "../../islands/calls/video-context.ts";

afterAll(() => unregisterDom());
const dom = reactRoot();

const ice = { iceServers: [], iceTransportPolicy: "all" as const };

function mount(socket: FakeSocket, adultConfirmedAt: string | null = "2026-01-01T10:00:00.000Z") {
  const toasts: string[] = [];
  const alerts: string[] = [];
  window.alert = (text?: unknown) => void alerts.push(String(text));
  const chat = harness({}, me({ adult_confirmed_at: adultConfirmedAt }));
  const host = dom.mount(
    <ChatContext.Provider value={chat.controller}>
      <CallLayer socket={socket} ice={ice} notify={(t) => toasts.push(t)} />
    </ChatContext.Provider>,
  );
  return { host, toasts, alerts, store: chat.controller.store };
}

/** Lets the lazy chunk load and the session's first steps run. */
async function settle(until: () => boolean) {
  for (let i = 0; i < 50 && !until(); i++) await act(() => new Promise((r) => setTimeout(r, 10)));
}

describe("CallLayer", () => {
  test("reads the start-call event's contact and ignores malformed ones", () => {
    const ev = (detail: unknown) => new CustomEvent(START_CALL_EVENT, { detail });
    expect(startRequest(ev({ contactId: 7, contactName: "Bob" }))).toEqual({ role: "caller", contact: { id: 7, name: "Bob" } });
    expect(startRequest(ev({ contactId: "7", contactName: "Bob" }))?.contact.id).toBe(7);
    expect(startRequest(ev({ contactId: "x", contactName: "Bob" }))).toBeNull();
    expect(startRequest(ev({ contactId: 7 }))).toBeNull();
    expect(startRequest(new Event(START_CALL_EVENT))).toBeNull();
  });

  test("renders nothing until a call starts", () => {
    const { host } = mount(new FakeSocket());
    expect(host.innerHTML).toBe("");
  });

  test("a browser without camera support gets the Russian alert when placing a call", async () => {
    const socket = new FakeSocket();
    const { host, alerts } = mount(socket);
    act(() => void window.dispatchEvent(new CustomEvent(START_CALL_EVENT, { detail: { contactId: 2, contactName: "Bob" } })));
    await settle(() => alerts.length > 0);
    expect(alerts).toEqual([UNSUPPORTED_BROWSER_ALERT]);
    await settle(() => host.innerHTML === "");
    expect(host.innerHTML).toBe("");
    expect(socket.sent).toEqual([]);
  });

  test("an incoming call opens the overlay; without camera support it is declined for the caller", async () => {
    const socket = new FakeSocket();
    const { alerts } = mount(socket);
    act(() => socket.emit("incoming_call", { callerId: 5, callerName: "Carol", callerPeerId: "peer-c" }));
    await settle(() => socket.sent.length > 0);
    expect(alerts).toEqual([UNSUPPORTED_BROWSER_ALERT]);
    expect(socket.sent).toEqual([{ event: "reject_call", data: { callerId: 5 } }]);
  });

  test("a tab in Video Roulette shows no incoming call and sends nothing: the call rings out for the caller", async () => {
    const socket = new FakeSocket();
    const { host, alerts, store } = mount(socket);
    store.rouletteActive.value = true;
    act(() => socket.emit("incoming_call", { callerId: 5, callerName: "Carol", callerPeerId: "peer-c" }));
    await settle(() => false);
    expect(host.innerHTML).toBe("");
    expect(alerts).toEqual([]);
    expect(socket.sent).toEqual([]);
    expect(store.callOpen.value).toBe(false);
    store.rouletteActive.value = false;
  });

  test("an account that never confirmed being 18 is asked first, and no call starts if it says no", async () => {
    const socket = new FakeSocket();
    const { alerts, store } = mount(socket, null);
    act(() => void window.dispatchEvent(new CustomEvent(START_CALL_EVENT, { detail: { contactId: 2, contactName: "Bob" } })));
    const answer = store.adultPrompt.value;
    expect(answer).not.toBeNull();
    act(() => answer?.(false));
    await settle(() => false);
    expect(alerts).toEqual([]);
    expect(socket.sent).toEqual([]);
  });

  test("a call that rings as the page's socket opens, before the chat screen hands the socket down, still rings", async () => {
    // The wiring of ChatApp: the layer first renders with no socket; the chat screen's effect
    // starts the page's client, and only a render later passes it down.
    const opened: FakeWebSocket[] = [];
    const realWebSocket = globalThis.WebSocket;
    globalThis.WebSocket = class extends FakeWebSocket {
      constructor(url: string) {
        super(url);
        opened.push(this);
      }
    } as unknown as typeof WebSocket;
    const alerts: string[] = [];
    window.alert = (text?: unknown) => void alerts.push(String(text));
    let handDown: (socket: VideoSocket) => void = () => {};
    function Page() {
      const [socket, setSocket] = useState<VideoSocket | null>(null);
      handDown = setSocket;
      return <CallLayer socket={socket} ice={ice} notify={() => {}} />;
    }
    const chat = harness({}, me({ adult_confirmed_at: "2026-01-01T10:00:00.000Z" }));
    dom.mount(
      <ChatContext.Provider value={chat.controller}>
        <Page />
      </ChatContext.Provider>,
    );
    let client: RealtimeClient | null = null;
    act(() => void (client = startRealtime("token")));
    try {
      const ws = opened[0]!;
      // The server rings a tab as it opens (a call placed while the page reloaded).
      act(() => {
        ws.open();
        ws.receive({ event: "incoming_call", data: { callerId: 5, callerName: "Carol", callerPeerId: "peer-c" } });
      });
      act(() => handDown(client!));
      const rejected = () => ws.frames().some((f) => f.event === "reject_call");
      await settle(rejected);
      // No camera support here: the overlay opened, and declined it for the caller.
      expect(alerts).toEqual([UNSUPPORTED_BROWSER_ALERT]);
      expect(ws.frames().filter((f) => f.event === "reject_call")).toEqual([{ event: "reject_call", data: { callerId: 5 } }]);
    } finally {
      client!.disconnect();
      globalThis.WebSocket = realWebSocket;
    }
  });

  test("stops listening when unmounted", () => {
    const socket = new FakeSocket();
    mount(socket);
    expect(socket.listeners("incoming_call")).toBe(1);
    dom.unmount();
    expect(socket.listeners("incoming_call")).toBe(0);
  });
});
