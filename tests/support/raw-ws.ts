// A WebSocket client over plain TCP, for the abuse tests and the abuse bench: it reads the status
// and headers of a refused upgrade (429, 503...) where a WebSocket object only sees a failure, and
// it can stop reading, as a hostile client would.
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export interface RawSocket {
  /** The upgrade answer's status: 101 when the socket opened; 0 when no answer came. */
  status: number;
  /** The upgrade answer's headers, names in lower case. */
  headers: Record<string, string>;
  /** Stops reading: the kernel's buffers fill, then whatever the server queues for this socket. */
  stopReading(): void;
  /** Reads again and answers whether the server ended the connection within `ms`. */
  endedWithin(ms: number): Promise<boolean>;
  /** Reads the server's text frames from now on (replacing the discarding reader). */
  onText(listener: (text: string) => void): void;
  sendText(text: string): void;
  /** Settles when the connection is gone, whoever ended it. */
  closed: Promise<void>;
  /** Sends a close frame and drops the connection. */
  close(): void;
  destroy(): void;
}

/** A masked client frame: text (0x1) or close (0x8). */
function frame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]);
  if (length > 0xffff) throw new Error("raw frames stay under 64 KB");
  return Buffer.concat([head, mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** Close code 1000, as a browser sends when a tab closes its socket. */
const CLOSE_FRAME = frame(0x8, Buffer.from([0x03, 0xe8]));

/** Splits the server's (unmasked, unfragmented) frames out of the byte stream; text frames go to `listener`. */
function textReader(listener: (text: string) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const short = pending[1]! & 0x7f;
      const offset = short === 126 ? 4 : short === 127 ? 10 : 2;
      if (pending.length < offset) return;
      const length = short === 126 ? pending.readUInt16BE(2) : short === 127 ? Number(pending.readBigUInt64BE(2)) : short;
      if (pending.length < offset + length) return;
      if ((pending[0]! & 0x0f) === 0x1) listener(pending.subarray(offset, offset + length).toString("utf8"));
      pending = pending.subarray(offset + length);
    }
  };
}

/** A WebSocket upgrade request for `path`, with `headers` added. */
function upgradeRequest(port: number, path: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** The socket endpoint's path for an account's token. */
export const socketPath = (token: string): string => `/ws?token=${encodeURIComponent(token)}`;

export function rawUpgrade(port: number, path: string, headers: Record<string, string> = {}, timeoutMs = 5000): Promise<RawSocket> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let head = "";
    let ended = false;
    socket.on("end", () => (ended = true));
    const closed = new Promise<void>((done) =>
      socket.on("close", () => {
        ended = true;
        done();
      }),
    );
    const fail = () => {
      socket.destroy();
      resolve(handle(0));
    };
    const timer = setTimeout(fail, timeoutMs);
    socket.on("error", () => {
      clearTimeout(timer);
      fail();
    });
    // What arrives between the upgrade and onText/stopReading, the first frames included.
    let early: Buffer[] = [];
    const handle = (status: number, headers: Record<string, string> = {}): RawSocket => ({
      status,
      headers,
      closed,
      stopReading: () => {
        socket.removeAllListeners("data");
        socket.pause();
        early = [];
      },
      async endedWithin(ms) {
        socket.on("data", () => {});
        socket.resume();
        const end = Date.now() + ms;
        while (!ended && Date.now() < end) await Bun.sleep(20);
        return ended;
      },
      onText: (listener) => {
        socket.removeAllListeners("data");
        const read = textReader(listener);
        for (const chunk of early) read(chunk);
        early = [];
        socket.on("data", read);
      },
      sendText: (text) => void socket.write(frame(0x1, Buffer.from(text))),
      close: () => {
        if (!socket.destroyed) socket.end(CLOSE_FRAME);
        // The server answers a close frame by closing; one that does not is dropped after 1 s.
        setTimeout(() => socket.destroy(), 1000);
      },
      destroy: () => socket.destroy(),
    });
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      clearTimeout(timer);
      socket.off("data", onData);
      const [statusLine = "", ...lines] = head.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      // Keeps reading until told otherwise, so an ordinary client really is reading.
      early = [Buffer.from(head.slice(end + 4), "latin1")];
      socket.on("data", (more: Buffer) => early.push(more));
      resolve(handle(Number(statusLine.split(" ")[1]) || 0, headers));
    };
    socket.on("data", onData);
    socket.write(upgradeRequest(port, path, headers));
  });
}

/** A refused upgrade: its status and the JSON body the server sent with it. */
export interface UpgradeRefusal {
  status: number;
  body: { code?: string; error?: string } | null;
}

/**
 * Asks for a socket and reads the answer as a refusal: the status line and the body (up to its
 * Content-Length, or until the server ends the connection). A socket that opens is an answer of
 * status 101 with no body, closed at once.
 */
export function refusedUpgrade(port: number, path: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<UpgradeRefusal> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let bytes = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no answer to the upgrade of ${path} within ${timeoutMs} ms`)), timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      const text = bytes.toString("utf8");
      const end = text.indexOf("\r\n\r\n");
      const status = Number(text.slice(0, text.indexOf("\r\n")).split(" ")[1]) || 0;
      let body: UpgradeRefusal["body"] = null;
      try {
        body = JSON.parse(text.slice(end + 4));
      } catch {}
      resolve({ status, body });
    };
    socket.on("data", (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const text = bytes.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (text.startsWith("HTTP/1.1 101")) return finish();
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1];
      if (length !== undefined && bytes.length >= end + 4 + Number(length)) finish();
    });
    socket.on("close", () => finish());
    socket.on("error", (error) => finish(error));
    socket.write(upgradeRequest(port, path, headers));
  });
}
