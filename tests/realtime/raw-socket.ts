// A WebSocket client over plain TCP for the abuse tests: it can read the status line of a refused
// upgrade (a browser only sees 1006) and it can stop reading, as a hostile client would.
import { connect as tcpConnect, type Socket } from "node:net";
import { randomBytes } from "node:crypto";

export interface RawClient {
  /** The HTTP status line's code and the headers of the upgrade answer. */
  status: number;
  headers: Record<string, string>;
  /** Sends one masked text frame. */
  sendText(text: string): void;
  /** Stops reading: the kernel buffers fill, then the server's queue for this socket grows. */
  stopReading(): void;
  destroy(): void;
  socket: Socket;
}

function frame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length;
  const head = length < 126 ? Buffer.from([0x81, 0x80 | length]) : Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]);
  if (length > 0xffff) throw new Error("raw frames stay under 64 KB");
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([head, mask, masked]);
}

/** Opens `/ws?token=` on 127.0.0.1:port and resolves once the answer's head has arrived (or 3 s passed). */
export function rawUpgrade(port: number, token: string, headers: Record<string, string> = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, "127.0.0.1");
    let head = "";
    const timer = setTimeout(() => (socket.destroy(), reject(new Error("no upgrade answer within 3 s"))), 3000);
    socket.on("error", (error) => (clearTimeout(timer), reject(error)));
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      clearTimeout(timer);
      socket.off("data", onData);
      const [statusLine = "", ...lines] = head.slice(0, end).split("\r\n");
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      // Keep draining unless told to stop, so a reading client is really reading.
      socket.on("data", () => {});
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers: parsed,
        sendText: (text) => void socket.write(frame(text)),
        stopReading: () => {
          socket.removeAllListeners("data");
          socket.pause();
        },
        destroy: () => socket.destroy(),
        socket,
      });
    };
    socket.on("data", onData);
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
    socket.write(
      `GET /ws?token=${encodeURIComponent(token)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
    );
  });
}
