// A real coturn (Debian's /usr/bin/turnserver) for one test suite: loopback only, on a free port
// with a small relay port range, a temporary config, shared-secret (TURN REST) authentication,
// and stopped in afterAll. `allow-loopback-peers` is here because both browsers are on this
// machine: it is for tests only and never belongs in an operator's config
// (scripts/turn-config.ts denies loopback and private ranges).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { stopChild } from "./children.ts";
import { freeTcpAndUdpPort } from "./ports.ts";

export const TURNSERVER = "/usr/bin/turnserver";

export interface RunningCoturn {
  port: number;
  secret: string;
  pid: number;
  /** TURN_URLS for the app: UDP and TCP on the loopback port. */
  urls: string;
  log(): string;
  stop(): Promise<void>;
}

/** 40 relay ports from a random start, so parallel suites rarely share them (coturn skips busy ones). */
function relayRange(): [number, number] {
  const start = 49_160 + Math.floor(Math.random() * 300) * 40;
  return [start, start + 39];
}

export async function startCoturn(): Promise<RunningCoturn> {
  if (!existsSync(TURNSERVER)) throw new Error(`${TURNSERVER} is missing: apt-get install -y coturn (scripts/machine/requirements.ts)`);
  const dir = mkdtempSync(join(tmpdir(), "webchat-coturn-"));
  const port = await freeTcpAndUdpPort();
  const secret = randomBytes(32).toString("base64url");
  const [minPort, maxPort] = relayRange();
  const logFile = join(dir, "turn.log");
  const config = [
    "listening-ip=127.0.0.1",
    `listening-port=${port}`,
    "relay-ip=127.0.0.1",
    `min-port=${minPort}`,
    `max-port=${maxPort}`,
    "use-auth-secret",
    `static-auth-secret=${secret}`,
    "realm=webchat.test",
    "fingerprint",
    "no-tls",
    "no-dtls",
    "no-cli",
    "no-rfc5780",
    "no-stun-backward-compatibility",
    "no-multicast-peers",
    // Tests only: both browsers and the relay are on loopback.
    "allow-loopback-peers",
    `log-file=${logFile}`,
    "simple-log",
    `pidfile=${join(dir, "turn.pid")}`,
    `userdb=${join(dir, "turndb")}`,
  ].join("\n");
  const configFile = join(dir, "turnserver.conf");
  writeFileSync(configFile, config + "\n");
  const child = Bun.spawn([TURNSERVER, "-c", configFile], { stdout: "ignore", stderr: "ignore" });
  const log = () => {
    try {
      return readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it accepts a TCP connection on its port.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const up = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {}, open(s) { s.end(); } } }).then(
      () => true,
      () => false,
    );
    if (up) return { port, secret, pid: child.pid, urls: `turn:127.0.0.1:${port}?transport=udp,turn:127.0.0.1:${port}?transport=tcp`, log, stop };
    await Bun.sleep(50);
  }
  const output = log();
  await stop();
  throw new Error(`coturn did not start:\n${output}`);
}
