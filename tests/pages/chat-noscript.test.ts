// Issue 10: with JavaScript off the chat page used to show "Loading..." and skeleton rows forever.
// The page now says plainly that the chat needs JavaScript, hides the island's server render
// when scripts are off, and offers a log-out form that works without them.
import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp();
afterAll(() => t.close());

describe("the chat page with JavaScript off", () => {
  test("carries a <noscript> notice that hides the island and offers logging out", async () => {
    const { token } = await registerUser(t);
    const html = (await t.call("GET", "/", { headers: { cookie: `sid=${token}` } })).text;
    const noscript = /<noscript>([\s\S]*?)<\/noscript>/.exec(html)?.[1] ?? "";
    expect(noscript).toContain("The chat needs JavaScript");
    expect(noscript).toContain("Turn JavaScript on for this site");
    expect(noscript).toMatch(/<style>\.page-chat \.island \{ display: none; \}<\/style>/);
    expect(noscript).toMatch(/<form action="\/auth\/logout" method="post">/);
    // The island (with its "Loading..." and skeleton rows) is what the style hides, not the notice.
    expect(noscript).not.toContain("data-island");
    expect(html).toContain('class="page-chat"');
    expect(html).toContain('class="island" data-island="ChatApp"');
  });

  test("the landing page has no such notice: it works without JavaScript", async () => {
    expect((await t.call("GET", "/")).text).not.toContain("<noscript>");
  });
});
