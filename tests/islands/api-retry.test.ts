// The API client and the contract's 503 with Retry-After (the database briefly away): a read is
// asked again after the wait, at most UNAVAILABLE_RETRIES times; a write, a 503 without
// Retry-After (a balancer's own) and any other refusal are not.
import { describe, expect, test } from "bun:test";
import { ApiError, createApi, UNAVAILABLE_RETRIES } from "../../islands/lib/api.ts";

const unavailable = (retryAfter: string | null) =>
  new Response(JSON.stringify({ error: "The service is briefly unavailable. Please try again in a moment.", code: "unavailable" }), {
    status: 503,
    headers: retryAfter === null ? {} : { "retry-after": retryAfter },
  });
const ok = (body: object) => new Response(JSON.stringify(body), { status: 200 });

/** An API over answers given in turn; `asked` holds each request as "METHOD path". */
function scripted(...answers: (() => Response)[]) {
  const asked: string[] = [];
  const api = createApi("t", async (path, init) => {
    asked.push(`${init?.method ?? "GET"} ${path}`);
    const next = answers.shift();
    if (!next) throw new Error(`no answer left for ${path}`);
    return next();
  });
  return { api, asked };
}

describe("a read refused with 503 and Retry-After", () => {
  test("is asked again after the wait and answers what the next try got", async () => {
    const { api, asked } = scripted(
      () => unavailable("0"),
      () => ok({ user: { id: 5 } }),
    );
    expect(await api.user(5)).toEqual({ user: { id: 5 } } as never);
    expect(asked).toEqual(["GET /api/users/5", "GET /api/users/5"]);
  });

  test("waits what Retry-After says before asking again", async () => {
    const { api, asked } = scripted(
      () => unavailable("1"),
      () => ok({ user: { id: 5 } }),
    );
    const began = performance.now();
    await api.user(5);
    expect(performance.now() - began).toBeGreaterThanOrEqual(990);
    expect(asked).toHaveLength(2);
  });

  test("fails with the server's refusal once the tries are spent", async () => {
    const { api, asked } = scripted(...Array.from({ length: UNAVAILABLE_RETRIES + 1 }, () => () => unavailable("0")));
    const error = await api.user(5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("unavailable");
    expect(asked).toHaveLength(UNAVAILABLE_RETRIES + 1);
  });
});

describe("not retried", () => {
  test("a write: whether it was done is the server's to say", async () => {
    const { api, asked } = scripted(() => unavailable("0"));
    const error = await api.logout().catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(503);
    expect(asked).toEqual(["POST /api/auth/logout"]);
  });

  test("a 503 without Retry-After, or with a wait too long or not a number", async () => {
    for (const header of [null, "", "30", "soon"]) {
      const { api, asked } = scripted(() => unavailable(header));
      expect(((await api.user(5).catch((e: unknown) => e)) as ApiError).status).toBe(503);
      expect(asked).toHaveLength(1);
    }
  });

  test("any other refusal", async () => {
    const { api, asked } = scripted(() => new Response(JSON.stringify({ error: "Not found", code: "not_found" }), { status: 404, headers: { "retry-after": "0" } }));
    expect(((await api.user(5).catch((e: unknown) => e)) as ApiError).status).toBe(404);
    expect(asked).toHaveLength(1);
  });
});
