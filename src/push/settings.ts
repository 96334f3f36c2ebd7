// Web Push settings (issue 26): the VAPID key pair, the push hosts the server may send to, the
// extra CA a test's local push service needs, the timeout and the per-user rate. Read by
// config.ts; the key pair is generated once and kept owner-only in DATA_DIR, like secret.key.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import webpush from "web-push";

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
  /** The `sub` claim: how a push service reaches the operator (mailto: or https:). */
  subject: string;
}

export interface PushSettings {
  vapid: VapidKeys;
  /** PUSH_HOSTS: hosts added to the known push services; they may resolve to private addresses. */
  extraHosts: string[];
  /** PUSH_CA_FILE: a PEM certificate trusted for push endpoints besides the system's (tests). */
  ca: string | null;
  timeoutMs: number;
  /** Pushes one person's devices may be sent per minute, all devices and kinds together. */
  perUserPerMinute: number;
}

type Env = Record<string, string | undefined>;
type Fail = (message: string) => Error;

const B64URL = /^[A-Za-z0-9_-]+$/;
const bytesOf = (value: string) => Buffer.from(value, "base64url").length;

function vapid(env: Env, dataDir: string, contactEmail: string, fail: Fail): VapidKeys {
  const subject = (env.VAPID_SUBJECT ?? "").trim() || `mailto:${contactEmail}`;
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) throw fail(`VAPID_SUBJECT must be a mailto: or https: URL, got "${subject}"`);
  const publicKey = (env.VAPID_PUBLIC_KEY ?? "").trim();
  const privateKey = (env.VAPID_PRIVATE_KEY ?? "").trim();
  if (publicKey !== "" || privateKey !== "") {
    if (!B64URL.test(publicKey) || bytesOf(publicKey) !== 65 || !B64URL.test(privateKey) || bytesOf(privateKey) !== 32) {
      throw fail("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must both be set, base64url, 65 and 32 bytes (npx web-push generate-vapid-keys)");
    }
    return { publicKey, privateKey, subject };
  }
  const file = join(dataDir, "vapid.json");
  if (existsSync(file)) {
    try {
      const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<VapidKeys>;
      if (typeof stored.publicKey === "string" && typeof stored.privateKey === "string" && bytesOf(stored.publicKey) === 65 && bytesOf(stored.privateKey) === 32) {
        return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
      }
    } catch {
      // Unreadable: refused below rather than replaced, since a new key pair orphans every subscription.
    }
    throw fail(`${file} is not a VAPID key pair; restore it, or remove it to generate a new one (every browser must then subscribe again)`);
  }
  const fresh = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(fresh) + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return { ...fresh, subject };
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function extraHosts(env: Env, fail: Fail): string[] {
  return (env.PUSH_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .map((host) => {
      if (!HOSTNAME.test(host)) throw fail(`PUSH_HOSTS must list host names such as push.example.com, got "${host}"`);
      return host;
    });
}

function ca(env: Env, fail: Fail): string | null {
  const path = (env.PUSH_CA_FILE ?? "").trim();
  if (path === "") return null;
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw fail(`PUSH_CA_FILE "${path}" cannot be read: ${(error as Error).message}`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw fail(`PUSH_CA_FILE "${path}" holds no PEM certificate`);
  return pem;
}

export function pushSettings(
  env: Env,
  dataDir: string,
  contactEmail: string,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  fail: Fail,
): PushSettings {
  return {
    vapid: vapid(env, dataDir, contactEmail, fail),
    extraHosts: extraHosts(env, fail),
    ca: ca(env, fail),
    timeoutMs: integer("PUSH_TIMEOUT_SECONDS", 10, 1, 120) * 1000,
    perUserPerMinute: integer("PUSH_RATE_LIMIT", 30, 1, 10_000),
  };
}
