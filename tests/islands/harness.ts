// A chat controller over a scripted API and a fake socket, for tests, and the DOM set-up of the
// files that render the chat screen's components with it.
import { afterAll, afterEach } from "bun:test";
import { act, createElement, type ReactNode } from "react";
import { ChatContext } from "../../islands/chat/context.ts";
import { ChatController, type RealtimePort } from "../../islands/lib/controller.ts";
import { createApi } from "../../islands/lib/api.ts";
import type { ServerEventKey, ServerEventMap } from "../../islands/lib/socket.ts";
import { createStore } from "../../islands/lib/store.ts";
import type { OwnUser } from "../../islands/lib/types.ts";
import { me, message } from "./fixtures.ts";
import { reactRoot, registerDom, unregisterDom } from "../support/dom.ts";
import { wait } from "./waits.ts";

type Route = (init: RequestInit | undefined, path: string) => unknown;

export interface Harness {
  controller: ChatController;
  calls: string[];
  sent: { event: string; data: unknown; ack: boolean }[];
  toasts: string[];
  routes: Map<string, Route>;
  socket: RealtimePort & { connected: boolean };
}

/** Routes are "METHOD /path" (query string left out); an unknown route answers 404. */
export function harness(routes: Record<string, Route> = {}, user: OwnUser = me()): Harness {
  const calls: string[] = [];
  const sent: Harness["sent"] = [];
  const toasts: string[] = [];
  const table = new Map<string, Route>(Object.entries(routes));
  const fetcher = async (path: string, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${path.split("?")[0]}`;
    calls.push(`${init?.method ?? "GET"} ${path}`);
    const route = table.get(key);
    if (!route) return new Response(JSON.stringify({ error: "Not found", code: "not_found" }), { status: 404 });
    const body = await route(init, path);
    if (body instanceof Response) return body;
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  const socket = {
    connected: true,
    on: () => () => true,
    send: (event: string, data: unknown) => {
      sent.push({ event, data, ack: false });
      return true;
    },
    request: async (event: string, data: unknown) => {
      sent.push({ event, data, ack: true });
      if (event === "messages_read") return { updatedCount: 1 };
      const { receiverId, content } = data as { receiverId: number; content: string };
      return { message: message({ id: Date.now(), sender_id: user.id, receiver_id: receiverId, content }) };
    },
  } as unknown as RealtimePort & { connected: boolean };
  const controller = new ChatController(createStore(user), createApi("tok", fetcher), () => socket, {
    success: (t) => toasts.push(`success:${t}`),
    error: (t) => toasts.push(`error:${t}`),
    info: (t) => toasts.push(`info:${t}`),
  });
  return { controller, calls, sent, toasts, routes: table, socket };
}

export { wait };

/**
 * For a file that renders chat components: happy-dom until the file ends, one React root,
 * localStorage emptied after each test, and `render` inside the controller's ChatContext.
 */
export function chatDom() {
  registerDom();
  afterAll(() => unregisterDom());
  const dom = reactRoot();
  afterEach(() => localStorage.clear());
  const render = (controller: ChatController, node: ReactNode): Promise<HTMLElement> =>
    dom.mountAsync(createElement(ChatContext.Provider, { value: controller }, node));
  return { dom, render };
}

export const text = (el: Element | null | undefined) => el?.textContent ?? "";
/** Lets lazily loaded chunks and pending requests finish. */
export const settle = () => act(async () => wait(30));
/** The JSON body a scripted route received. */
export const bodyOf = (init: RequestInit | undefined): unknown => JSON.parse(String(init?.body ?? "null"));
/** Clicks inside act, so what the click renders is there when it resolves. */
export const click = (el: Element | null | undefined) =>
  act(async () => {
    if (!(el instanceof HTMLElement)) throw new Error("nothing to click");
    el.click();
  });
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A socket whose events the test fires by hand. `wrap` runs each handler: pass React's `act`
 * when the handler renders, so the test sees the result at once.
 */
export function emitter(wrap: (run: () => void) => void = (run) => run()) {
  const handlers = new Map<string, (data: unknown) => void>();
  return {
    on<K extends ServerEventKey>(event: K, handler: (data: ServerEventMap[K]) => void) {
      handlers.set(event, handler as (data: unknown) => void);
      return () => handlers.delete(event);
    },
    emit<K extends ServerEventKey>(event: K, data: ServerEventMap[K]) {
      wrap(() => handlers.get(event)?.(data));
    },
  };
}
