import { describe, expect, test } from "bun:test";
import { createLogger, errorFields } from "../../src/observability/log.ts";
import { pathForLog } from "../../src/observability/log-path.ts";
import { requestIdFor } from "../../src/observability/request-id.ts";

const capture = (level: "debug" | "info" | "warn" | "error" | "silent", format: "text" | "json") => {
  const lines: { level: string; line: string }[] = [];
  return { lines, log: createLogger({ level, format }, (lvl, line) => lines.push({ level: lvl, line })) };
};

describe("logs", () => {
  test("LOG_FORMAT=json writes one JSON object a line with time, level, msg and the fields", () => {
    const { lines, log } = capture("info", "json");
    log.info("request", { request_id: "abc12345", status: 200, skipped: undefined, note: "two\nlines" });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line).not.toContain("\n");
    const parsed = JSON.parse(lines[0]!.line);
    expect(parsed).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), level: "info", msg: "request", request_id: "abc12345", status: 200, note: "two\nlines" });
  });

  test("text stays on one line and quotes values that could fake a field", () => {
    const { lines, log } = capture("debug", "text");
    log.warn("slow\nrequest", { path: "/api/x", status: 200, tricky: 'a b status=500 "x"' });
    expect(lines[0]!.level).toBe("warn");
    expect(lines[0]!.line).toMatch(/^\S+Z WARN slow request path=\/api\/x status=200 tricky="a b status=500 \\"x\\""$/);
  });

  test("writes nothing below its level and says so before fields are built", () => {
    const { lines, log } = capture("warn", "text");
    log.debug("a");
    log.info("b");
    log.error("c");
    expect(lines.map((l) => l.line.split(" ")[2])).toEqual(["c"]);
    expect([log.enabled("info"), log.enabled("warn")]).toEqual([false, true]);
    const silent = capture("silent", "json");
    silent.log.error("nobody hears this");
    expect(silent.lines).toHaveLength(0);
  });

  test("an error's fields keep the message and frames but cut a failed query's parameters", () => {
    const error = new Error('Failed query: insert into "messages" ("content") values (?)\nparams: my secret message,$argon2id$hash');
    const fields = errorFields(error);
    expect(fields.error).toBe('Error: Failed query: insert into "messages" ("content") values (?)');
    expect(JSON.stringify(fields)).not.toContain("secret message");
    expect(JSON.stringify(fields)).not.toContain("argon2");
    expect(String(fields.stack)).toContain("log.test.ts");
  });
});

describe("request ids and logged paths", () => {
  test("keeps a well-formed client id and replaces anything else with a fresh one", () => {
    expect(requestIdFor("proxy-id-1234")).toBe("proxy-id-1234");
    for (const bad of [null, "short", "has space 12345", "semi;colon12345", "x".repeat(65), "line\nbreak12345"]) {
      expect(requestIdFor(bad)).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(requestIdFor(null)).not.toBe(requestIdFor(null));
  });

  test("drops the query string and masks long segments such as appeal tokens", () => {
    expect(pathForLog("http://localhost/ws?token=abc.def")).toBe("/ws");
    expect(pathForLog("http://localhost/api/users/12#x")).toBe("/api/users/12");
    expect(pathForLog("http://localhost/appeal/17.Zm9vYmFyYmF6cXV4cXV1eGZvb2Jhcg")).toBe("/appeal/:masked");
    expect(pathForLog(`http://localhost/${"a/".repeat(300)}`).length).toBe(200);
  });
});
