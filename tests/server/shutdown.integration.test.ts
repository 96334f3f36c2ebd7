// SIGTERM whatever clients do: the real server exits within a few seconds, and an upload cut off
// by it leaves no partial file and no half-stored message (issue 18, item 11).
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { connect as tcp, type Socket } from "node:net";
import { join } from "node:path";
import { openPeerSocket } from "../peerjs/client.ts";
import { removeServerData, serverSql, startServer, type ServerProcess } from "../support/server-process.ts";
import { connect } from "../support/ws.ts";
import { until } from "../support/until.ts";

afterAll(removeServerData);

const MB = 1024 * 1024;

/** Opens a raw connection and writes `head` (and `body`), leaving it open. */
function rawRequest(port: number, head: string, body?: Uint8Array): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcp({ host: "127.0.0.1", port }, () => {
      socket.write(head);
      if (body) socket.write(body);
      resolve(socket);
    });
    socket.on("error", () => undefined);
    socket.once("error", reject);
  });
}

/** A multipart upload that declares a 10 MB file, sends the first 3 MB of it, then stalls. */
async function stalledUpload(server: ServerProcess, token: string, receiverId: number): Promise<Socket> {
  const boundary = "----stalled";
  const preamble = `--${boundary}\r\nContent-Disposition: form-data; name="receiverId"\r\n\r\n${receiverId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const closing = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(preamble) + 10 * MB + Buffer.byteLength(closing);
  const head = [
    "POST /api/messages/upload HTTP/1.1",
    `Host: 127.0.0.1:${server.port}`,
    `Authorization: Bearer ${token}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${length}`,
    "",
    "",
  ].join("\r\n");
  return rawRequest(server.port, head, Buffer.concat([Buffer.from(preamble), Buffer.alloc(3 * MB, 7)]));
}

const spool = (dataDir: string) => join(dataDir, "uploads", ".spool");
const spoolBytes = (dataDir: string) => (existsSync(spool(dataDir)) ? readdirSync(spool(dataDir)).reduce((sum, name) => sum + statSync(join(spool(dataDir), name)).size, 0) : 0);


describe("SIGTERM", () => {
  test("with an upload stalled after 3 of 10 MB, the server exits with code 0 within its own 4.5 s deadline and leaves no partial file", async () => {
    const server = await startServer();
    try {
      const sender = await server.guest("male");
      const receiver = await server.guest("female");
      const upload = await stalledUpload(server, sender.token, receiver.user.id);
      // The server holds the 3 MB in its spool file (but for a possible delimiter's start): the upload is in flight.
      await until(() => spoolBytes(server.dataDir) >= 3 * MB - 1024, "the spool filling with 3 MB");

      // Code 0 is the bound: past its own SHUTDOWN_DEADLINE_MS (4.5 s) the server exits with 1.
      // The test's own wait only catches a server that never exits.
      server.proc.kill("SIGTERM");
      expect(await server.exited(30_000)).toBe(0);
      upload.destroy();

      expect(readdirSync(spool(server.dataDir))).toEqual([]);
      expect(existsSync(join(server.dataDir, "uploads", "files")) ? readdirSync(join(server.dataDir, "uploads", "files")) : []).toEqual([]);
      expect(await serverSql(server.dataDir, "SELECT CAST(count(*) AS INTEGER) AS n FROM messages")).toEqual([{ n: 0 }]);
    } finally {
      await server.kill();
    }
  }, 60_000);

  test("with idle keep-alive, half-sent headers, an unread answer, an open /ws and an open /peerjs socket, the server exits with code 0 within its own 4.5 s deadline", async () => {
    const server = await startServer();
    try {
      const user = await server.guest("female");
      const ws = await connect(server.wsUrl, user.token);
      const peer = openPeerSocket(`${server.wsUrl}/peerjs/peerjs?key=peerjs&id=shutdown-peer&token=tok&version=1.5.5`, { cookie: `sid=${encodeURIComponent(user.token)}`, origin: server.url });
      expect(await peer.opened).toBe(true);
      const host = `Host: 127.0.0.1:${server.port}`;
      // A keep-alive connection that got its answer and now sits idle.
      const idle = await rawRequest(server.port, `GET /healthz HTTP/1.1\r\n${host}\r\n\r\n`);
      await new Promise((resolve) => idle.once("data", resolve));
      // Headers that never end (slowloris), and a large answer nobody reads.
      const halfHeaders = await rawRequest(server.port, `GET /healthz HTTP/1.1\r\n${host}\r\nX-Slow: 1\r\n`);
      const unread = await rawRequest(server.port, `GET /api/openapi.json HTTP/1.1\r\n${host}\r\n\r\n`);
      unread.pause();

      // Code 0 is the bound: past its own SHUTDOWN_DEADLINE_MS (4.5 s) the server exits with 1.
      // The test's own wait only catches a server that never exits.
      server.proc.kill("SIGTERM");
      expect(await server.exited(30_000)).toBe(0);
      expect((await ws.closed).code).toBe(1001);
      await peer.closed;
      for (const socket of [idle, halfHeaders, unread]) socket.destroy();
    } finally {
      await server.kill();
    }
  }, 60_000);
});
