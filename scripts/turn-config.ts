// Prints a hardened coturn config for an operator's domain, and the matching app settings:
//
//   bun scripts/turn-config.ts --domain turn.example.com [--external-ip 203.0.113.10]
//        [--secret <at least 32 characters>] [--min-port 49160] [--max-port 49999]
//        [--cert /etc/letsencrypt/live/<domain>/fullchain.pem] [--pkey .../privkey.pem] > /etc/turnserver.conf
//
// The config goes to stdout, the TURN_URLS / TURN_SECRET lines for the app's environment to
// stderr. docs/OPERATING.md walks through the rest. Never add allow-loopback-peers here: the test
// suites need it on loopback (tests/support/coturn.ts); a public relay must not reach this
// machine's own or private addresses.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

export interface TurnConfigOptions {
  domain: string;
  secret: string;
  externalIp?: string;
  minPort: number;
  maxPort: number;
  cert: string;
  pkey: string;
}

/** Addresses a relay must never forward to: this host, private networks, link-local, CGNAT, multicast. */
export const DENIED_PEER_RANGES = [
  "0.0.0.0-0.255.255.255",
  "10.0.0.0-10.255.255.255",
  "100.64.0.0-100.127.255.255",
  "127.0.0.0-127.255.255.255",
  "169.254.0.0-169.254.255.255",
  "172.16.0.0-172.31.255.255",
  "192.0.0.0-192.0.0.255",
  "192.0.2.0-192.0.2.255",
  "192.88.99.0-192.88.99.255",
  "192.168.0.0-192.168.255.255",
  "198.18.0.0-198.19.255.255",
  "198.51.100.0-198.51.100.255",
  "203.0.113.0-203.0.113.255",
  "224.0.0.0-255.255.255.255",
  "::1",
  "64:ff9b::-64:ff9b::ffff:ffff",
  "::ffff:0.0.0.0-::ffff:255.255.255.255",
  "fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
  "fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
];

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function turnConfig(o: TurnConfigOptions): string {
  if (!DOMAIN.test(o.domain)) throw new Error(`--domain must be a host name such as turn.example.com, got "${o.domain}"`);
  if (o.secret.length < 32 || /\s/.test(o.secret)) throw new Error("--secret must be at least 32 characters without spaces");
  if (!(o.minPort >= 1024 && o.maxPort <= 65535 && o.minPort < o.maxPort)) throw new Error("--min-port and --max-port must be a range within 1024-65535");
  return [
    `# coturn for ${o.domain}, made by scripts/turn-config.ts. See docs/OPERATING.md.`,
    "# Ports: 3478 UDP+TCP (TURN), 5349 TCP (TURN over TLS), and the relay range below (UDP).",
    "listening-port=3478",
    "tls-listening-port=5349",
    ...(o.externalIp ? [`# This host's public address, when coturn sits behind NAT (a cloud VM).`, `external-ip=${o.externalIp}`] : []),
    `min-port=${o.minPort}`,
    `max-port=${o.maxPort}`,
    "",
    "# Credentials: the app mints short-lived ones (TURN REST) with this shared secret.",
    "use-auth-secret",
    `static-auth-secret=${o.secret}`,
    `realm=${o.domain}`,
    `server-name=${o.domain}`,
    "fingerprint",
    "",
    "# TLS for turns: (clients behind firewalls that allow only HTTPS-like traffic).",
    `cert=${o.cert}`,
    `pkey=${o.pkey}`,
    "no-tlsv1",
    "no-tlsv1_1",
    "no-dtls",
    "",
    "# Hardening: no admin console, no STUN-only tricks, no relaying to this host or private networks.",
    "no-cli",
    "no-rfc5780",
    "no-stun-backward-compatibility",
    "response-origin-only-with-rfc5780",
    "no-multicast-peers",
    "no-tcp-relay",
    "secure-stun",
    ...DENIED_PEER_RANGES.map((range) => `denied-peer-ip=${range}`),
    "",
    "# Quotas: per user (one session's credentials) and in all, and bandwidth per session.",
    "user-quota=12",
    "total-quota=1200",
    "max-bps=3000000",
    "stale-nonce=600",
    "",
    "# Logs without the credentials' secret parts; to syslog (journalctl -u coturn).",
    "syslog",
    "no-software-attribute",
    "",
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      domain: { type: "string" },
      secret: { type: "string" },
      "external-ip": { type: "string" },
      "min-port": { type: "string", default: "49160" },
      "max-port": { type: "string", default: "49999" },
      cert: { type: "string" },
      pkey: { type: "string" },
    },
  });
  if (!values.domain) {
    console.error("usage: bun scripts/turn-config.ts --domain turn.example.com [--external-ip IP] [--secret S] [--min-port N] [--max-port N] [--cert PATH] [--pkey PATH]");
    process.exit(2);
  }
  const secret = values.secret ?? randomBytes(36).toString("base64url");
  try {
    process.stdout.write(
      turnConfig({
        domain: values.domain,
        secret,
        externalIp: values["external-ip"],
        minPort: Number(values["min-port"]),
        maxPort: Number(values["max-port"]),
        cert: values.cert ?? `/etc/letsencrypt/live/${values.domain}/fullchain.pem`,
        pkey: values.pkey ?? `/etc/letsencrypt/live/${values.domain}/privkey.pem`,
      }),
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const d = values.domain;
  console.error(`\n# For the app's environment:\nTURN_URLS=turn:${d}:3478?transport=udp,turn:${d}:3478?transport=tcp,turns:${d}:5349?transport=tcp\nTURN_SECRET=${secret}\n`);
}
