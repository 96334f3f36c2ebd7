// ICE servers and the relay-only policy reach the browser from the server's config at run time.
import { afterAll, expect, test } from "bun:test";
import { makeTestApp, registerUser } from "../support/app.ts";

const turn = { urls: ["turn:turn.chat.test:3478"], username: "webchat", credential: "s3cret-turn-pass" };
const t = makeTestApp({ ICE_SERVERS: JSON.stringify([turn]), ICE_TRANSPORT_POLICY: "relay" });
afterAll(() => t.close());

test("hands the configured TURN server and the relay-only policy to the chat island", async () => {
  const { token } = await registerUser(t);
  const r = await t.call("GET", "/", { headers: { cookie: `sid=${token}` } });
  const json = /<script type="application\/json" id="island-ChatApp-props">(.*?)<\/script>/.exec(r.text)?.[1] ?? "{}";
  expect(JSON.parse(json).ice).toEqual({ iceServers: [turn], iceTransportPolicy: "relay" });
});
