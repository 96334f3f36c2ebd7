// The 18+ confirmation (API.md "Safety", Adult): accounts made before the rule confirm once,
// and until they do, calls refuse them.
import { describe, expect, test } from "bun:test";
import { CONFIRM_ADULT_PER_HOUR } from "../../src/users/index.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { clockMovesOn } from "../support/until.ts";

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

/** An account from before the rule: no confirmation recorded. */
async function legacyUser(overrides: Record<string, unknown> = {}) {
  const u = await registerUser(t, overrides);
  await t.sql("UPDATE users SET adult_confirmed_at = NULL WHERE id = ?", u.user.id);
  return u;
}

const confirm = (token: string) => t.call("POST", "/api/users/confirm-adult", { token });

describe("POST /api/users/confirm-adult", () => {
  test("records the confirmation once and answers the caller's own user", async () => {
    const me = await legacyUser();
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.adult_confirmed_at).toBeNull();
    const first = await confirm(me.token);
    expect(first.status).toBe(200);
    expect(first.body.user.id).toBe(me.user.id);
    expect(first.body.user.adult_confirmed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(first.body.user.email).toBeString();
    await clockMovesOn();
    const second = await confirm(me.token);
    expect(second.body.user.adult_confirmed_at).toBe(first.body.user.adult_confirmed_at);
  });

  test("ignores whatever body comes with it and needs a signed-in caller", async () => {
    const me = await legacyUser();
    const r = await t.call("POST", "/api/users/confirm-adult", { token: me.token, body: "{", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(200);
    expect((await t.call("POST", "/api/users/confirm-adult")).status).toBe(401);
  });

  test(`allows ${CONFIRM_ADULT_PER_HOUR} calls an hour per user, then answers 429`, async () => {
    const me = await registerUser(t);
    for (let i = 0; i < CONFIRM_ADULT_PER_HOUR; i++) expect((await confirm(me.token)).status).toBe(200);
    const refused = await confirm(me.token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
  });
});

describe("calls before the confirmation", () => {
  test("call_user answers adult_confirmation_required until the caller confirms, then rings", async () => {
    const caller = await legacyUser();
    const callee = await registerUser(t);
    const c = await connect(t.wsUrl, caller.token);
    const r = await connect(t.wsUrl, callee.token);
    const refused = await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    expect(refused.error).toEqual({ code: "adult_confirmation_required", message: "Please confirm that you are 18 or older first" });
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    expect((await c.next("error")).data).toMatchObject({ code: "adult_confirmation_required", event: "call_user" });
    expect(await r.silent("incoming_call", c)).toBe(true);
    expect(t.ctx.calls.isBusy(caller.user.id)).toBe(false);
    await confirm(caller.token);
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    await r.next("incoming_call");
    c.close();
    r.close();
  });

  test("answering needs the confirmation too, and the call keeps ringing until then", async () => {
    const caller = await registerUser(t);
    const callee = await legacyUser();
    const c = await connect(t.wsUrl, caller.token);
    const r = await connect(t.wsUrl, callee.token);
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    const refused = await r.ask("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    expect(refused.error?.code).toBe("adult_confirmation_required");
    expect(await c.silent("call_answered", r)).toBe(true);
    await confirm(callee.token);
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    expect((await c.next("call_answered")).data).toEqual({ answererPeerId: "p2" });
    c.close();
    r.close();
  });
});
