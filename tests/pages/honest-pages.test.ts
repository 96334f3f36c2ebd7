// Issue 7, "Honest pages": no page sends people to a button that does not exist, every page that
// tells people how to report names the real Report button and where it is, and Privacy and Terms
// say what reports, evidence, roulette text and blocks keep, and that a partner can learn your IP.
import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";

const t = makeTestApp();
const relayed = makeTestApp({ ICE_SERVERS: JSON.stringify([{ urls: "turn:turn.chat.test:3478", username: "u", credential: "p" }]), ICE_TRANSPORT_POLICY: "relay" });
afterAll(async () => {
  await t.close();
  await relayed.close();
});

/** What a reader sees: tags and React's text markers removed, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

const page = async (path: string, app = t) => visibleText((await app.call("GET", path)).text);

const reportPlaces = ["in a person's profile", "in the chat header's \u22EE menu", "in the menu of a single message", "during a call", "on the stranger's video in Video Roulette"];

describe("where to report", () => {
  test("no page mentions a Complaint button any more", async () => {
    for (const path of ["/", "/terms", "/privacy", "/compliance", "/cookies", "/no-such-page"]) {
      expect({ path, complaint: /complaint/i.test((await t.call("GET", path)).text) }).toEqual({ path, complaint: false });
    }
  });

  test("the landing page's safety tip, its FAQ and the User Agreement each name Report and every place it is", async () => {
    const html = (await t.call("GET", "/")).text;
    const parts = {
      tip: html.slice(html.indexOf('class="tip-list"'), html.indexOf("</ul>", html.indexOf('class="tip-list"'))),
      faq: html.slice(html.indexOf("What happens if someone breaks the rules?"), html.indexOf("</details>", html.indexOf("What happens if someone breaks the rules?"))),
      agreement: html.slice(html.indexOf('id="agreement"'), html.indexOf('class="btn btn-primary modal-close"')),
    };
    for (const [name, part] of Object.entries(parts)) {
      const text = visibleText(part);
      expect({ name, text }).toMatchObject({ name, text: expect.stringMatching(/press Report/i) });
      for (const place of reportPlaces) expect({ name, text }).toMatchObject({ name, text: expect.stringContaining(place) });
    }
    expect(visibleText(parts.agreement)).toContain("Block is next to Report");
    expect(visibleText(parts.faq)).toContain("Settings \u2192 Blocked people");
  });

  test("Terms and the 2257 notice name Report and every place it is", async () => {
    for (const path of ["/terms", "/compliance"]) {
      const text = await page(path);
      expect(text).toContain("press Report");
      for (const place of reportPlaces) expect({ path, text }).toMatchObject({ path, text: expect.stringContaining(place) });
    }
    expect(await page("/compliance")).toContain("Appears to be under 18");
    expect(await page("/terms")).toContain("Block is next to Report");
  });
});

describe("what is kept, said in Privacy and in Terms", () => {
  for (const path of ["/privacy", "/terms"]) {
    test(`${path} says what reports, evidence stills, roulette text, blocks and the 18+ confirmation keep, and for how long`, async () => {
      const text = await page(path);
      for (const said of [
        "a still picture of the partner's video",
        "seen only by moderators",
        "the last 50 messages of that conversation",
        "until the session ends and 10 minutes after",
        "until a moderator closes",
        "90 days",
        "appears to be under 18 are kept until an administrator deletes them",
        "the reason, the details written",
        "18 or older",
      ]) {
        expect({ path, text }).toMatchObject({ path, text: expect.stringContaining(said) });
      }
      expect(text).toMatch(/[Bb]locks? (is kept )?until you (remove|unblock)/);
    });

    test(`${path} says that a call or roulette partner can learn your IP address unless a relay is set up`, async () => {
      const text = await page(path);
      expect(text).toContain("IP address");
      expect(text).toContain("relay (TURN) server");
      expect(text).toContain("This site does not do so at the moment, so a partner's browser can learn your IP address.");
    });

    test(`${path} says that this site hides addresses when every call goes through its relay`, async () => {
      const text = await page(path, relayed);
      expect(text).toContain("every call and roulette session goes through its relay server, so partners see the relay's address, not yours");
      expect(text).not.toContain("does not do so at the moment");
    });

    test(`${path} says roulette partners are strangers and Keep in touch needs both`, async () => {
      const text = await page(path);
      expect(text).toContain("“Stranger” with");
      expect(text).toMatch(/gender, age and country/);
      expect(text).toContain("“Keep in touch” shares your profile");
      expect(text).toContain("only when both of you press it");
    });
  }
});
