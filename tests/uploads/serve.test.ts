import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loginAs, registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { fileOf, pngBytes, SVG_WITH_SCRIPT, uploadForm } from "./fixtures.ts";

const t = listeningApp();
let alice: Awaited<ReturnType<typeof registerUser>>;
let bob: Awaited<ReturnType<typeof registerUser>>;
let eve: Awaited<ReturnType<typeof registerUser>>;
let imagePath: string;
let svgPath: string;
let htmlPath: string;
let avatarUrl: string;

const SECRET = "top secret outside the uploads folder";

async function send(file: File): Promise<string> {
  const res = await t.call("POST", "/api/messages/upload", { token: alice.token, body: uploadForm(bob.user.id, "file", [file]) });
  return res.body.message.file_path;
}

beforeAll(async () => {
  [alice, bob, eve] = [await registerUser(t), await registerUser(t), await registerUser(t)];
  imagePath = await send(fileOf(await pngBytes(), "photo.png", "image/png"));
  svgPath = await send(fileOf(SVG_WITH_SCRIPT, "drawing.svg", "image/svg+xml"));
  htmlPath = await send(fileOf("<html><script>alert(1)</script></html>", "page.html", "text/html"));
  const form = new FormData();
  form.append("avatar", fileOf(await pngBytes(), "me.png"));
  avatarUrl = (await t.call("POST", "/api/users/avatar/upload", { token: eve.token, body: form })).body.avatar_url;
  writeFileSync(join(t.dataDir, "secret.txt"), SECRET);
  writeFileSync(join(t.dataDir, "uploads", "loose.txt"), SECRET);
});

const fetchUpload = (path: string, options: { token?: string; cookie?: string; method?: string } = {}) =>
  t.call(options.method ?? "GET", `/uploads/${path}`, { token: options.token, headers: options.cookie ? { cookie: `sid=${options.cookie}` } : {} });

describe("who may fetch a chat file", () => {
  test("serves it to the sender and the receiver by bearer token", async () => {
    for (const token of [alice.token, bob.token]) {
      const res = await fetchUpload(imagePath, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    }
  });

  test("serves it by the session cookie, as an <img> in the page would ask", async () => {
    expect((await fetchUpload(imagePath, { cookie: bob.token })).status).toBe(200);
  });

  test("answers 404, not 403, to a third user and to nobody", async () => {
    for (const res of [await fetchUpload(imagePath, { token: eve.token }), await fetchUpload(imagePath, { cookie: eve.token }), await fetchUpload(imagePath)]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    const missing = await fetchUpload("files/0123456789abcdef0123456789abcdef.png", { token: alice.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe((await fetchUpload(imagePath, { token: eve.token })).body.error);
  });

  test("answers 404 to a revoked session", async () => {
    const login = await loginAs(t, bob.user.username);
    await t.call("POST", "/api/auth/logout", { token: login.body.token });
    expect((await fetchUpload(imagePath, { cookie: login.body.token })).status).toBe(404);
  });

  test("serves an avatar to anyone, cacheable for a long time", async () => {
    const res = await t.call("GET", avatarUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toContain("public");
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d{7,}/);
  });
});

describe("how files are sent", () => {
  test("sends raster images inline with their real type, nosniff and a private cache", async () => {
    const res = await fetchUpload(imagePath, { token: bob.token });
    expect(res.headers.get("content-disposition")).toStartWith("inline");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toStartWith("private");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });

  test("sends an SVG as an attachment of octet-stream under a sandboxing CSP", async () => {
    const res = await fetchUpload(svgPath, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toStartWith("attachment");
    expect(res.headers.get("content-disposition")).toContain('filename="drawing.svg"');
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.text).toBe(SVG_WITH_SCRIPT);
  });

  test("sends HTML the same way", async () => {
    const res = await fetchUpload(htmlPath, { token: alice.token });
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toStartWith("attachment");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
  });

  test("encodes a non-ASCII name safely in Content-Disposition", async () => {
    const path = await send(fileOf("x", "Отчёт; 100%.txt"));
    const header = (await fetchUpload(path, { token: bob.token })).headers.get("content-disposition")!;
    expect(header).toContain("filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%3B%20100%25.txt");
    expect(header).toContain('filename="______ 100_.txt"');
    expect(header).toMatch(/filename="[\x20-\x7e]*"/);
    expect(header.match(/"/g)).toHaveLength(2);
  });

  test("answers HEAD with the headers and no body", async () => {
    const res = await t.app.handle(new Request(`http://localhost/uploads/${imagePath}`, { method: "HEAD", headers: { authorization: `Bearer ${bob.token}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await res.text()).toBe("");
    const stranger = await t.app.handle(new Request(`http://localhost/uploads/${imagePath}`, { method: "HEAD" }));
    expect(stranger.status).toBe(404);
  });
});

describe("paths that try to leave the uploads folder", () => {
  const attempts = [
    "../secret.txt",
    "..%2fsecret.txt",
    "%2e%2e/secret.txt",
    "%2e%2e%2fsecret.txt",
    "files/..%2f..%2fsecret.txt",
    "files/%2e%2e/%2e%2e/secret.txt",
    "files\\..\\..\\secret.txt",
    "files%5c..%5c..%5csecret.txt",
    "%2fetc%2fpasswd",
    "/etc/passwd",
    "loose.txt",
    "files/%00.png",
    "files%00/../loose.txt",
    "chat.sqlite",
    "..%252fsecret.txt",
  ];

  test.each(attempts)("answers 404 to /uploads/%s", async (attempt) => {
    const res = await t.call("GET", `/uploads/${attempt}`, { token: alice.token, headers: { cookie: `sid=${alice.token}` } });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(SECRET);
  });

  test("answers 404 to the same paths sent raw, without any client normalising them", async () => {
    for (const attempt of attempts) {
      const status = await rawGet(`/uploads/${attempt}`);
      expect([400, 404]).toContain(status);
    }
  });
});

/** One HTTP/1.1 request over a plain socket, so `..` reaches the server exactly as written. */
async function rawGet(path: string): Promise<number> {
  const { hostname, port } = new URL(t.url);
  let received = "";
  const done = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data: (_, chunk) => {
        received += chunk.toString();
      },
      close: () => done.resolve(),
      error: () => done.resolve(),
    },
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${alice.token}\r\nConnection: close\r\n\r\n`);
  await done.promise;
  expect(received).not.toContain(SECRET);
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
}
