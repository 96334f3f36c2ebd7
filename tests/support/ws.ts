// A small socket client for tests: send events, await the next matching frame, ask with acks.
export interface Frame {
  event?: string;
  data?: any;
  ack?: number;
  error?: { code: string; message: string };
}

/** Anything that can be settled: a WebSocket test socket or a polling one (poll.ts). */
export type Settles = Pick<TestSocket, "settle">;

export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  send(event: string, data?: unknown, ack?: number): void;
  raw(text: string | Uint8Array<ArrayBuffer>): void;
  next(event: string, timeoutMs?: number, where?: (f: Frame) => boolean): Promise<Frame>;
  /** The next frame `where` accepts, whatever its event; `label` names it in the timeout's message. */
  nextWhere(where: (f: Frame) => boolean, label: string, timeoutMs?: number): Promise<Frame>;
  ask(event: string, data?: unknown, timeoutMs?: number): Promise<Frame>;
  /**
   * True when no `event` frame has reached this socket by the time the server answers a ping on it,
   * after answering one on each of `earlier` first (the sockets whose events could cause `event`).
   * The server handles a socket's frames in order and writes to each socket in order, so a pong is
   * a marker behind anything those events sent: no sleep, and a slow server only makes it slower.
   */
  silent(event: string, ...earlier: Settles[]): Promise<boolean>;
  /** Sends ping and resolves on its pong: every frame this socket sent before has been handled. */
  settle(): Promise<void>;
  /** Whether an `event` frame is waiting unread among `frames`. */
  saw(event: string): boolean;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Matches frames about one user (presence events carry `data.userId`). */
export const about = (userId: number) => (f: Frame) => f.data?.userId === userId;

/**
 * Had `s` heard `event` about `userId` by its pong, after `earlier` were settled? Presence frames
 * about other people may arrive meanwhile; only this user's count.
 */
export async function heardAbout(s: TestSocket, event: string, userId: number, ...earlier: Settles[]): Promise<boolean> {
  await settled(...earlier, s);
  return s.frames.some((f) => f.event === event && about(userId)(f));
}

let ackCounter = 0;

/** How long a test waits for a frame the server owes it: generous, since a loaded 2-core machine is slow, not broken. */
export const DEFAULT_WAIT_MS = 10_000;

/**
 * Settles each socket in turn (ping, then its pong): once it resolves, whatever the server sent
 * because of frames these sockets sent earlier has arrived. Put the sockets that caused something
 * first and the ones that must (or must not) hear of it after.
 */
export async function settled(...sockets: Settles[]): Promise<void> {
  for (const socket of sockets) await socket.settle();
}

/**
 * The frames a test socket received and not yet taken, and the waiters for ones still to come:
 * shared by the WebSocket client here and the polling one (poll.ts).
 */
export function frameInbox() {
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  const deliver = (frame: Frame) => {
    const waiter = waiters.find((w) => w.match(frame));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    } else frames.push(frame);
  };
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
  return { frames, deliver, take };
}

export type FrameMethods = Pick<TestSocket, "next" | "nextWhere" | "ask" | "silent" | "settle" | "saw">;

/**
 * What a test socket does with the frames of its inbox, whatever carries them (a WebSocket here,
 * HTTP polls in poll.ts): wait for the next one, ask with an ack, settle on a pong, check silence.
 */
export function frameMethods(inbox: Pick<ReturnType<typeof frameInbox>, "frames" | "take">, send: TestSocket["send"]): FrameMethods {
  const { frames, take } = inbox;
  const methods: FrameMethods = {
    next: (event, timeoutMs = DEFAULT_WAIT_MS, where = () => true) => take((f) => f.event === event && where(f), timeoutMs, event),
    nextWhere: (where, label, timeoutMs = DEFAULT_WAIT_MS) => take(where, timeoutMs, label),
    ask(event, data = {}, timeoutMs = DEFAULT_WAIT_MS) {
      const ack = ++ackCounter;
      send(event, data, ack);
      return take((f) => f.ack === ack && f.event === undefined, timeoutMs, `ack of ${event}`);
    },
    // The server handles a socket's frames in order and answers in order (polls included), so
    // a pong is a marker behind anything sent before it.
    async silent(event, ...earlier) {
      await settled(...earlier, methods);
      return !methods.saw(event);
    },
    async settle() {
      send("ping", {});
      await take((f) => f.event === "pong", DEFAULT_WAIT_MS, "pong");
    },
    saw: (event) => frames.some((f) => f.event === event),
  };
  return methods;
}

/**
 * Opens a socket and resolves once the server holds it (it answered a ping) or has closed it (a
 * refusal the test reads from `closed`). The client sees a socket open before the server has read
 * its session (a round trip on PostgreSQL), and until then the socket hears no event meant for its
 * user: a test that acted at once raced that read, and lost it on a busy machine (a call rang
 * only the tabs already held). The ping spends one frame of the user's event budget; when the
 * budget is spent its answer is a refusal, which says the socket is held just as well.
 * `query` is added to the URL as is (`&resume=<sid>`).
 */
export async function connect(wsUrl: string, token: string, headers: Record<string, string> = {}, query = ""): Promise<TestSocket> {
  const socket = await openSocket(wsUrl, token, headers, query);
  let closed = false;
  void socket.closed.then(() => (closed = true));
  const answer = socket.ask("ping");
  // Closed first: no answer comes, and its wait's timeout must not fail a later test.
  answer.catch(() => {});
  await Promise.race([answer, socket.closed]).catch((error: Error) => {
    if (!closed) throw new Error(`the server neither held nor closed the socket: ${error.message}`);
  });
  // An answered ping's pong comes before its ack: taken, so the test sees only its own frames.
  const pong = socket.frames.findIndex((f) => f.event === "pong");
  if (pong >= 0) socket.frames.splice(pong, 1);
  return socket;
}

/** Opens a socket and resolves as soon as the client sees it open, before the server may hold it. */
function openSocket(wsUrl: string, token: string, headers: Record<string, string> = {}, query = ""): Promise<TestSocket> {
  const ws = new WebSocket(`${wsUrl}/ws?token=${encodeURIComponent(token)}${query}`, { headers } as unknown as string[]);
  const { frames, deliver, take } = frameInbox();
  let closeResolve!: (v: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (closeResolve = r));
  ws.onmessage = (e) => deliver(JSON.parse(String(e.data)) as Frame);
  ws.onclose = (e) => closeResolve({ code: e.code, reason: e.reason });

  const send: TestSocket["send"] = (event, data = {}, ack) => ws.send(JSON.stringify(ack === undefined ? { event, data } : { event, data, ack }));
  const socket: TestSocket = {
    ws,
    frames,
    send,
    raw: (text) => ws.send(text),
    ...frameMethods({ frames, take }, send),
    closed,
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(socket);
    ws.onerror = () => reject(new Error("socket failed to open"));
    closed.then((c) => reject(new Error(`socket closed before open: ${c.code}`)));
  });
}
