// An HTTP/1.1 request over plain TCP, for the body-limit tests: it can declare a Content-Length
// and send fewer bytes (or none), which fetch() cannot, so a test can tell that the server
// answered without reading the body it was promised.
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from sending the head to the whole answer. */
  ms: number;
}

/**
 * Sends `method path` with `headers` and then `body` (possibly shorter than the declared length),
 * and resolves with the answer once its head and Content-Length bytes are in; rejects after
 * `timeoutMs` without one.
 */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body: string | Uint8Array = "", timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    let received: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (answer: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on("error", () => {}); // the server may close while we still write: the answer decides
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine = "", ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const answerHeaders: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) answerHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(answerHeaders["content-length"] ?? 0);
      const rest = received.subarray(end + 4);
      if (rest.length < length) return;
      finish({ status: Number(statusLine.split(" ")[1]), headers: answerHeaders, body: rest.subarray(0, length).toString("utf8"), ms: performance.now() - started });
    });
    socket.on("close", () => {
      if (received.length === 0) {
        clearTimeout(timer);
        reject(new Error(`connection closed without an answer to ${method} ${path}`));
      }
    });
    const head = [`${method} ${path} HTTP/1.1`, "host: 127.0.0.1", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
    socket.write(head);
    if (body.length > 0) socket.write(body);
  });
}
