// A NUL (U+0000) in anything a client sends is refused with the same clear 400 on both engines
// (src/http/nul.ts): PostgreSQL's text cannot hold it, SQLite's could. In a JSON body at any depth,
// a form post, a query string and a socket frame, named on the field that holds it; nothing is stored.
import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });
const REFUSED = "Text cannot contain a NUL character";

describe("a NUL in what a client sends", () => {
  test("inside a JSON body, even deep in a profile: 400 validation, no account made", async () => {
    const res = await t.call("POST", "/api/auth/register", {
      json: { username: "nul_profile", email: "nul@example.com", password: "correct horse", name: "Nul", gender: "male", age: 30, country_code: "DE", adult: true, profile: { about: "a\u0000b" } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation", fields: { profile: REFUSED } });
    const rows = await t.sql("SELECT id FROM users WHERE username = 'nul_profile'");
    expect(rows).toHaveLength(0);
  });

  test("a JSON body that only mentions the escape as text is accepted", async () => {
    const { token } = await registerUser(t);
    const res = await t.call("PUT", "/api/users/profile", { token, json: { name: "Back\\u0000slash" } });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe("Back\\u0000slash");
  });

  test("in a no-JavaScript form post and in a query string: 400, in the visitor's language", async () => {
    const form = await fetch(`${t.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=a%00b&password=whatever1",
    });
    expect(form.status).toBe(400);
    // The no-JavaScript page again, saying what is wrong.
    expect(await form.text()).toContain(REFUSED);
    const { token } = await registerUser(t);
    const search = await fetch(`${t.url}/api/users?q=a%00`, { headers: { authorization: `Bearer ${token}`, "accept-language": "de" } });
    expect(search.status).toBe(400);
    expect(await search.json()).toMatchObject({ code: "validation", fields: { q: "Text darf kein NUL-Zeichen enthalten" } });
  });

  test("in a socket frame: the ack says so and nothing is stored", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const s = await connect(t.wsUrl, a.token);
    try {
      const ack = await s.ask("send_message", { receiverId: b.user.id, content: "hi\u0000", clientMessageId: "nul-1" });
      expect(ack.error).toMatchObject({ code: "validation", message: REFUSED });
      expect(await t.sql("SELECT id FROM messages WHERE client_message_id = 'nul-1'")).toHaveLength(0);
    } finally {
      s.close();
    }
  });
});
