// A warning reaches an open socket at once, is listed until acknowledged, and only its owner can
// acknowledge it.
import { describe, expect, test } from "bun:test";
import { warnUser } from "../../src/moderation/actions.ts";
import { registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { staff } from "../support/moderation.ts";

const t = listeningApp();

describe("warnings", () => {
  test("an open socket gets the `warning` event at once, and GET /api/warnings lists it until acknowledged", async () => {
    const mod = await staff(t, "moderator");
    const target = await connectedUser(t);
    const row = await warnUser(t.ctx, mod.actor, target.user.id, "Keep it friendly");
    const event = await target.s.next("warning");
    expect(event.data).toEqual({ id: row.id, reason: "Keep it friendly", created_at: new Date(row.createdAt).toISOString() });
    const listed = await t.call("GET", "/api/warnings", { token: target.token });
    expect(listed.status).toBe(200);
    expect(listed.body.warnings).toEqual([event.data]);
    const ack = await t.call("POST", `/api/warnings/${row.id}/acknowledge`, { token: target.token });
    expect(ack.status).toBe(200);
    expect((await t.call("GET", "/api/warnings", { token: target.token })).body.warnings).toEqual([]);
  });

  test("someone else's warning, an unknown one and a malformed id cannot be acknowledged", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const other = await registerUser(t);
    const row = await warnUser(t.ctx, mod.actor, target.user.id, "Keep it friendly");
    expect((await t.call("POST", `/api/warnings/${row.id}/acknowledge`, { token: other.token })).status).toBe(404);
    expect((await t.call("POST", "/api/warnings/99999999/acknowledge", { token: other.token })).status).toBe(404);
    for (const id of ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999", "%00"]) {
      const answer = await t.call("POST", `/api/warnings/${id}/acknowledge`, { token: other.token });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("validation");
    }
    expect((await t.call("POST", `/api/warnings/${row.id}/acknowledge`)).status).toBe(401);
    expect((await t.call("GET", "/api/warnings", { token: target.token })).body.warnings).toHaveLength(1);
  });

  test("acknowledging has a per-user budget: past it, 429 with Retry-After", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const row = await warnUser(t.ctx, mod.actor, target.user.id, "Keep it friendly");
    let last = await t.call("POST", `/api/warnings/${row.id}/acknowledge`, { token: target.token });
    for (let i = 0; i < 60; i++) last = await t.call("POST", `/api/warnings/${row.id}/acknowledge`, { token: target.token });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
