// One client interface over the two wire protocols the bench speaks: the project's own frames on
// a plain WebSocket (the project and the floor), and Socket.IO (the peer, through
// socket.io-client from bench/peer/node_modules).
import { createRequire } from "node:module";
import { join } from "node:path";

export type Protocol = "raw" | "socketio";

export interface Answer {
  data?: Record<string, unknown>;
  error?: { code: string; message?: string };
}

export interface Client {
  /** Sends an event that asks for an ack; resolves with the answer. */
  request(event: string, data: object): Promise<Answer>;
  /** Sends an event without an ack. */
  emit(event: string, data: object): void;
  /** Calls `listener` for every server event of that name. */
  on(event: string, listener: (data: Record<string, unknown>) => void): void;
  close(): void;
}

export interface Target {
  protocol: Protocol;
  /** http://127.0.0.1:port */
  base: string;
  /** Headers for the socket's upgrade request (the cluster run steers HAProxy to an instance with one); raw protocol only. */
  headers?: Record<string, string>;
}

function rawClient(base: string, token: string, limitMs: number, headers?: Record<string, string>): Promise<Client> {
  return new Promise((resolve, reject) => {
    const url = `${base.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`;
    // Bun's WebSocket takes upgrade headers in an options object.
    const ws = headers ? new WebSocket(url, { headers } as unknown as string[]) : new WebSocket(url);
    const waiting = new Map<number, (answer: Answer) => void>();
    const listeners = new Map<string, (data: Record<string, unknown>) => void>();
    let nextAck = 1;
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`a socket did not open within ${limitMs} ms`));
    }, limitMs);
    ws.onopen = () => {
      clearTimeout(timer);
      resolve(client);
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(new Error("a socket was refused"));
    };
    ws.onclose = () => {
      for (const done of waiting.values()) done({ error: { code: "closed" } });
      waiting.clear();
    };
    const onMessage = (e: MessageEvent) => {
      const frame = JSON.parse(String(e.data)) as { event?: string; ack?: number; data?: Record<string, unknown>; error?: Answer["error"] };
      if (frame.event === undefined && frame.ack !== undefined) {
        const done = waiting.get(frame.ack);
        waiting.delete(frame.ack);
        done?.(frame.error ? { error: frame.error } : { data: frame.data });
        return;
      }
      if (frame.event !== undefined) listeners.get(frame.event)?.(frame.data ?? {});
    };
    const client: Client = {
      request: (event, data) =>
        new Promise((done) => {
          ws.onmessage = onMessage;
          const ack = nextAck++;
          waiting.set(ack, done);
          ws.send(JSON.stringify({ event, data, ack }));
        }),
      emit: (event, data) => ws.send(JSON.stringify({ event, data })),
      on: (event, listener) => {
        // A socket nobody listens to is not parsed at all: idle sockets cost the load nothing.
        ws.onmessage = onMessage;
        listeners.set(event, listener);
      },
      close: () => ws.close(),
    };
  });
}

interface IoSocket {
  on(event: string, listener: (...args: unknown[]) => void): void;
  emit(event: string, ...args: unknown[]): void;
  timeout(ms: number): IoSocket;
  close(): void;
}
type IoFactory = (url: string, options: object) => IoSocket;
let ioFactory: IoFactory | null = null;

function socketIo(): IoFactory {
  ioFactory ??= (createRequire(join(import.meta.dir, "..", "peer", "package.json"))("socket.io-client") as { io: IoFactory }).io;
  return ioFactory;
}

function ioClient(base: string, token: string, limitMs: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = socketIo()(base, { transports: ["websocket"], auth: { token }, forceNew: true, multiplex: false, reconnection: false, timeout: limitMs });
    socket.on("connect", () => resolve(client));
    socket.on("connect_error", (error) => reject(error instanceof Error ? error : new Error(String(error))));
    const client: Client = {
      request: (event, data) => new Promise((done) => socket.emit(event, data, (answer: Answer) => done(answer))),
      emit: (event, data) => socket.emit(event, data),
      on: (event, listener) => socket.on(event, (data) => listener(data as Record<string, unknown>)),
      close: () => socket.close(),
    };
  });
}

export const connect = (target: Target, token: string, limitMs = 10_000): Promise<Client> =>
  target.protocol === "raw" ? rawClient(target.base, token, limitMs, target.headers) : ioClient(target.base, token, limitMs);

/** Runs `task` for 0..n-1, `width` at a time, until `deadline` (ms since epoch); answers what finished. */
export async function inBatches<T>(n: number, width: number, deadline: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n && Date.now() < deadline; start += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => task(start + k)))));
  }
  return out;
}

/** The value at quantile q of sorted numbers. */
export const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
