// A small socket client for tests: send events, await the next matching frame, ask with acks.
export interface Frame {
  event?: string;
  data?: any;
  ack?: number;
  error?: { code: string; message: string };
}

export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  send(event: string, data?: unknown, ack?: number): void;
  raw(text: string | Uint8Array<ArrayBuffer>): void;
  next(event: string, timeoutMs?: number, where?: (f: Frame) => boolean): Promise<Frame>;
  ask(event: string, data?: unknown, timeoutMs?: number): Promise<Frame>;
  /** Resolves false if `event` arrives within the time, true if it does not. */
  silent(event: string, ms?: number): Promise<boolean>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

let ackCounter = 0;

/** `query` is added to the URL as is (`&resume=<sid>`). */
export function connect(wsUrl: string, token: string, headers: Record<string, string> = {}, query = ""): Promise<TestSocket> {
  const ws = new WebSocket(`${wsUrl}/ws?token=${encodeURIComponent(token)}${query}`, { headers } as unknown as string[]);
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  let closeResolve!: (v: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (closeResolve = r));
  ws.onmessage = (e) => {
    const frame = JSON.parse(String(e.data)) as Frame;
    const waiter = waiters.find((w) => w.match(frame));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    } else frames.push(frame);
  };
  ws.onclose = (e) => closeResolve({ code: e.code, reason: e.reason });

  const take = (match: (f: Frame) => boolean, timeoutMs: number, label: string) =>
    new Promise<Frame>((resolve, reject) => {
      const index = frames.findIndex(match);
      if (index >= 0) return resolve(frames.splice(index, 1)[0]!);
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`timed out waiting for ${label}; had ${JSON.stringify(frames.map((f) => f.event ?? `ack ${f.ack}`))}`));
      }, timeoutMs);
      const waiter = { match, resolve: (f: Frame) => (clearTimeout(timer), resolve(f)) };
      waiters.push(waiter);
    });

  const socket: TestSocket = {
    ws,
    frames,
    send: (event, data = {}, ack) => ws.send(JSON.stringify(ack === undefined ? { event, data } : { event, data, ack })),
    raw: (text) => ws.send(text),
    next: (event, timeoutMs = 3000, where = () => true) => take((f) => f.event === event && where(f), timeoutMs, event),
    ask(event, data = {}, timeoutMs = 3000) {
      const ack = ++ackCounter;
      socket.send(event, data, ack);
      return take((f) => f.ack === ack && f.event === undefined, timeoutMs, `ack of ${event}`);
    },
    async silent(event, ms = 300) {
      try {
        await take((f) => f.event === event, ms, event);
        return false;
      } catch {
        return true;
      }
    },
    closed,
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(socket);
    ws.onerror = () => reject(new Error("socket failed to open"));
    closed.then((c) => reject(new Error(`socket closed before open: ${c.code}`)));
  });
}
