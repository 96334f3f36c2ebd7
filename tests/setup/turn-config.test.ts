// scripts/turn-config.ts: the coturn config operators get is hardened, and Debian's coturn runs it
// without a configuration complaint.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { turnConfig } from "../../scripts/turn-config.ts";
import { TURNSERVER } from "../support/coturn.ts";

const options = { domain: "turn.example.com", secret: "s".repeat(40), minPort: 49160, maxPort: 49999, cert: "/etc/ssl/turn.pem", pkey: "/etc/ssl/turn.key" };

describe("the operator's coturn config", () => {
  const config = turnConfig(options);
  const lines = config.split("\n");

  test("authenticates with the shared secret and listens for TLS on 5349", () => {
    expect(lines).toContain("use-auth-secret");
    expect(lines).toContain(`static-auth-secret=${options.secret}`);
    expect(lines).toContain("tls-listening-port=5349");
    expect(lines).toContain("min-port=49160");
    expect(lines).toContain("max-port=49999");
  });

  test("has no console, quotas, and never relays to loopback or private ranges", () => {
    expect(lines).toContain("no-cli");
    expect(lines.some((l) => l.startsWith("user-quota="))).toBe(true);
    expect(lines.some((l) => l.startsWith("total-quota="))).toBe(true);
    for (const range of ["127.0.0.0-127.255.255.255", "10.0.0.0-10.255.255.255", "172.16.0.0-172.31.255.255", "192.168.0.0-192.168.255.255", "169.254.0.0-169.254.255.255", "::1"]) {
      expect(lines).toContain(`denied-peer-ip=${range}`);
    }
    expect(config).not.toContain("allow-loopback-peers");
  });

  test("refuses a short secret, a bad domain and a bad port range", () => {
    expect(() => turnConfig({ ...options, secret: "short" })).toThrow(/secret/);
    expect(() => turnConfig({ ...options, domain: "not a domain" })).toThrow(/domain/);
    expect(() => turnConfig({ ...options, minPort: 50000, maxPort: 40000 })).toThrow(/port/);
  });

  test.if(existsSync(TURNSERVER))("is accepted by Debian's coturn without a configuration complaint", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webchat-turnconf-"));
    try {
      const cert = join(dir, "cert.pem");
      const key = join(dir, "key.pem");
      Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=turn.example.com"]);
      const log = join(dir, "turn.log");
      // The operator's config as printed, moved to loopback ports and a log file for the test.
      const port = 40_000 + Math.floor(Math.random() * 5000);
      const local = turnConfig({ ...options, cert, pkey: key })
        .replace("listening-port=3478", `listening-port=${port}\nlistening-ip=127.0.0.1`)
        .replace("tls-listening-port=5349", `tls-listening-port=${port + 1}`)
        .replace("\nsyslog\n", `\nlog-file=${log}\nsimple-log\npidfile=${join(dir, "pid")}\nuserdb=${join(dir, "db")}\n`);
      writeFileSync(join(dir, "turn.conf"), local);
      const child = Bun.spawn([TURNSERVER, "-c", join(dir, "turn.conf")], { stdout: "ignore", stderr: "ignore" });
      const deadline = Date.now() + 10_000;
      const read = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
      while (Date.now() < deadline && !read().includes("Total General servers") && child.exitCode === null) await Bun.sleep(50);
      child.kill();
      await child.exited;
      if (!read().includes("Total General servers")) console.error(read());
      expect(read()).toContain("Total General servers");
      expect(read()).not.toMatch(/bad configuration|unknown option|CONFIG ERROR|CONFIGURATION ALERT|allow_loopback_peers/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
