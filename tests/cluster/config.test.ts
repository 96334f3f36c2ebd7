// REDIS_URL turns on several instances (API.md "Several instances"); start-up refuses a cluster
// configuration that lacks DATABASE_URL (PostgreSQL), JWT_SECRET or UPLOADS_DIR, with one line
// naming it.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { tempDirsForFile } from "../support/temp-dirs.ts";

const dir = tempDirsForFile("webchat-cluster-config-");

const CLUSTER = {
  REDIS_URL: "redis://127.0.0.1:6379",
  DATABASE_URL: "postgres://root@127.0.0.1:5432/test",
  JWT_SECRET: "cluster-secret-cluster-secret-cluster-secret",
  UPLOADS_DIR: dir(),
};

/** The server started on `env` alone (and a fresh DATA_DIR, PATH to find bun): it must exit 1 with one line on stderr, which is returned. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const child = Bun.spawn(["node_modules/.bin/bun", "src/server.ts"], {
    env: { PATH: process.env.PATH, DATA_DIR: dir(), PORT: "0", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await child.exited).toBe(1);
  const lines = (await new Response(child.stderr).text()).trim().split("\n");
  expect(lines.length).toBe(1);
  return lines[0]!;
}

describe("a cluster configuration", () => {
  test("without REDIS_URL there is none; with everything it names the Redis and the prefix", () => {
    expect(loadConfig({ DATA_DIR: dir() }).cluster).toBeNull();
    expect(loadConfig({ DATA_DIR: dir(), ...CLUSTER }).cluster).toEqual({ redisUrl: "redis://127.0.0.1:6379", prefix: "webchat:" });
    expect(loadConfig({ DATA_DIR: dir(), ...CLUSTER, REDIS_PREFIX: "chat-eu:" }).cluster?.prefix).toBe("chat-eu:");
  });

  test("each missing piece is refused with a line naming it", () => {
    const without = (name: keyof typeof CLUSTER) => () => loadConfig({ DATA_DIR: dir(), ...CLUSTER, [name]: "" });
    expect(without("DATABASE_URL")).toThrow(/DATABASE_URL/);
    expect(without("JWT_SECRET")).toThrow(/JWT_SECRET/);
    expect(without("UPLOADS_DIR")).toThrow(/UPLOADS_DIR/);
    expect(() => loadConfig({ DATA_DIR: dir(), ...CLUSTER, DATABASE_URL: "sqlite:./chat.sqlite" })).toThrow(/DATABASE_URL.*postgres/);
    expect(() => loadConfig({ DATA_DIR: dir(), ...CLUSTER, REDIS_URL: "http://x" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), ...CLUSTER, REDIS_PREFIX: "has space" })).toThrow(/REDIS_PREFIX/);
  });

  test("the server refuses to start with REDIS_URL but no DATABASE_URL: one line, exit code 1", async () => {
    expect(await refusedStart({ REDIS_URL: CLUSTER.REDIS_URL, JWT_SECRET: CLUSTER.JWT_SECRET, UPLOADS_DIR: CLUSTER.UPLOADS_DIR })).toContain("DATABASE_URL");
  }, 30_000);

  test("with everything set the server still refuses, as several instances are a preview: one line naming REDIS_URL, exit code 1", async () => {
    const line = await refusedStart(CLUSTER);
    expect(line).toContain("REDIS_URL (several instances) is still a preview");
    expect(line).toContain("CLUSTER_PREVIEW=1");
  }, 30_000);

  test("CLUSTER_PREVIEW is off unless set, and a yes or no", () => {
    expect(loadConfig({ DATA_DIR: dir(), ...CLUSTER }).clusterPreview).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), ...CLUSTER, CLUSTER_PREVIEW: "1" }).clusterPreview).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dir(), ...CLUSTER, CLUSTER_PREVIEW: "maybe" })).toThrow(/CLUSTER_PREVIEW/);
  });

  test("UPLOADS_DIR is where stored files go; it must be an existing folder (a missing mount is refused, not made)", () => {
    const d = dir();
    expect(loadConfig({ DATA_DIR: d }).uploadsDir).toBe(join(d, "uploads"));
    const shared = dir();
    expect(loadConfig({ DATA_DIR: dir(), UPLOADS_DIR: shared }).uploadsDir).toBe(shared);
    expect(() => loadConfig({ DATA_DIR: dir(), UPLOADS_DIR: join(shared, "not-mounted") })).toThrow(/UPLOADS_DIR/);
  });
});
