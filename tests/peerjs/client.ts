// A bare peer socket for tests: keeps every text frame as it arrived (the differential test
// compares exact JSON), and every wait is bounded.
export interface PeerTestSocket {
  /** Resolves true once open, false if the upgrade was refused or the socket closed first. */
  opened: Promise<boolean>;
  closed: Promise<{ code: number; reason: string }>;
  isClosed(): boolean;
  /** The next frame's text, or an error after `timeoutMs`. */
  next(timeoutMs?: number): Promise<string>;
  /** Every frame that arrives within `ms` (and any not yet taken). */
  drain(ms: number): Promise<string[]>;
  send(frame: unknown): void;
  close(): void;
}

// Bun's WebSocket takes upgrade headers (the session cookie). bun-types declares that
// constructor, but with the DOM lib in tsconfig the DOM's declaration wins, hence the cast.
type BunWebSocketConstructor = new (url: string, options: Bun.WebSocketOptions) => WebSocket;
const BunWebSocket = WebSocket as unknown as BunWebSocketConstructor;

export function openPeerSocket(url: string, headers: Record<string, string> = {}): PeerTestSocket {
  const ws = new BunWebSocket(url, { headers });
  const frames: string[] = [];
  let waiter: ((text: string) => void) | null = null;
  let isClosed = false;

  ws.onmessage = (event) => {
    const text = String(event.data);
    if (waiter) waiter(text);
    else frames.push(text);
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.onclose = (event) => {
      isClosed = true;
      resolve({ code: event.code, reason: event.reason });
    };
  });
  const opened = new Promise<boolean>((resolve) => {
    ws.onopen = () => resolve(true);
    void closed.then(() => resolve(false));
  });

  return {
    opened,
    closed,
    isClosed: () => isClosed,
    next(timeoutMs = 2000) {
      const queued = frames.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = null;
          reject(new Error(`no frame within ${timeoutMs} ms`));
        }, timeoutMs);
        waiter = (text) => {
          clearTimeout(timer);
          waiter = null;
          resolve(text);
        };
      });
    },
    async drain(ms) {
      await Bun.sleep(ms);
      return frames.splice(0);
    },
    send(frame) {
      if (typeof frame === "string") ws.send(frame);
      else if (frame instanceof Uint8Array) ws.send(new Uint8Array(frame));
      else ws.send(JSON.stringify(frame));
    },
    close: () => ws.close(),
  };
}

/** Waits for the close, up to `timeoutMs`; "open" if it did not come. */
export async function closeOf(socket: PeerTestSocket, timeoutMs = 2000): Promise<string> {
  const timeout = Bun.sleep(timeoutMs).then(() => "open");
  return Promise.race([socket.closed.then((c) => `closed ${c.code}`), timeout]);
}

let marks = 0;

/**
 * Sends a CANDIDATE to the socket's own peer id and waits for it to come back: the server handles
 * a socket's frames and writes to it in order, so by then it has handled everything the socket
 * sent before, and every frame it wrote to the socket before has arrived. Returns those frames.
 * A "nothing arrives" check ends here instead of on a guessed wait.
 */
export async function roundTrip(socket: PeerTestSocket, ownId: string, timeoutMs = 10_000): Promise<string[]> {
  const mark = `mark-${++marks}`;
  if (!(await socket.opened)) throw new Error("the socket closed before it could mark");
  socket.send({ type: "CANDIDATE", dst: ownId, payload: { mark } });
  const before: string[] = [];
  for (;;) {
    const text = await socket.next(timeoutMs);
    if (text.includes(`"${mark}"`)) return before;
    before.push(text);
  }
}
