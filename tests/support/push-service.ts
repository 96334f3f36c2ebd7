// A push service for tests (issue 26): an https server on a loopback port with a self-signed
// certificate made by openssl for "localhost", recording every request and answering each with the
// status a test chose for its path. Plus what a browser does with a push: a subscription's keys
// (WebCrypto), the RFC 8291 decryption of a payload, and the check of the VAPID header (RFC 8292).
// The server under test trusts the certificate through PUSH_CA_FILE and the host through PUSH_HOSTS.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Bytes = Uint8Array<ArrayBuffer>;

export interface PushRequest {
  path: string;
  headers: Record<string, string>;
  body: Bytes;
}

export interface LocalPushService {
  /** PUSH_HOSTS and PUSH_CA_FILE for the app under test. */
  env: Record<string, string>;
  requests: PushRequest[];
  /** The requests received on `path`, in order. */
  requestsTo(path: string): PushRequest[];
  /** The status answered on `path` (201 unless set). */
  answer(path: string, status: number): void;
  /** Requests on `path` are never answered (timeouts). */
  hang(path: string): void;
  url(path: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Makes the certificate at once (so an app's config can name it at module load); start() listens. */
export function localPushService(): LocalPushService {
  const dir = mkdtempSync(join(tmpdir(), "webchat-push-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const made = Bun.spawnSync(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
    { stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  const requests: PushRequest[] = [];
  const statuses = new Map<string, number>();
  const hanging = new Set<string>();
  let server: Server | undefined;
  let port = 0;
  return {
    env: { PUSH_HOSTS: "localhost", PUSH_CA_FILE: cert },
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    answer: (path, status) => void statuses.set(path, status),
    hang: (path) => void hanging.add(path),
    url: (path) => `https://localhost:${port}${path}`,
    start: () =>
      new Promise<void>((resolve) => {
        server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            const path = req.url ?? "/";
            const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
            requests.push({ path, headers, body: new Uint8Array(Buffer.concat(chunks)) });
            if (hanging.has(path)) return;
            res.writeHead(statuses.get(path) ?? 201);
            res.end();
          });
        });
        server.listen(0, "127.0.0.1", () => {
          port = (server!.address() as { port: number }).port;
          resolve();
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
        if (!server) resolve();
      }),
  };
}

const b64url = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString("base64url");
const fromB64url = (text: string): Bytes => new Uint8Array(Buffer.from(text, "base64url"));

/** A browser's side of one subscription: its key pair and auth secret, and what it sends the server. */
export interface BrowserSubscription {
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  privateKey: CryptoKey;
  publicKey: Bytes;
  auth: Bytes;
}

export async function browserSubscription(endpoint: string): Promise<BrowserSubscription> {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return { json: { endpoint, expirationTime: null, keys: { p256dh: b64url(publicKey), auth: b64url(auth) } }, privateKey: pair.privateKey, publicKey, auth };
}

const hkdf = async (salt: Bytes, ikm: Bytes, info: Bytes, bytes: number): Promise<Bytes> =>
  new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]), bytes * 8));

const concat = (...parts: Bytes[]): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};
const text = (s: string): Bytes => new Uint8Array(new TextEncoder().encode(s));

/** RFC 8291 (aes128gcm, one record) as a browser decrypts it: the JSON the server sent. */
export async function decryptPush(sub: BrowserSubscription, body: Bytes): Promise<unknown> {
  const salt = body.slice(0, 16);
  const idlen = body[20]!;
  const asPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const asKey = await crypto.subtle.importKey("raw", asPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdh = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: asKey }, sub.privateKey, 256));
  const ikm = await hkdf(sub.auth, ecdh, concat(text("WebPush: info\0"), sub.publicKey, asPublic), 32);
  const cek = await hkdf(salt, ikm, text("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, text("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the last record's delimiter (2) is missing");
  return JSON.parse(new TextDecoder().decode(padded.slice(0, end)));
}

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<key>`, the JWT signed ES256 by that key. Answers its claims. */
export async function verifyVapid(authorization: string, publicKey: string): Promise<{ aud: string; exp: number; sub: string }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID header: ${authorization}`);
  const [, jwt, k] = match;
  if (k !== publicKey) throw new Error("the header's key is not the server's public key");
  const [header, claims, signature] = jwt!.split(".");
  const key = await crypto.subtle.importKey("raw", fromB64url(k), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromB64url(signature!), text(`${header}.${claims}`));
  if (!ok) throw new Error("the VAPID signature does not verify");
  if (JSON.parse(Buffer.from(header!, "base64url").toString()).alg !== "ES256") throw new Error("the JWT is not ES256");
  return JSON.parse(Buffer.from(claims!, "base64url").toString());
}
