// HTTP: the VAPID public key, and a device's notifications on and off (issue 26). A subscription
// is the browser's PushSubscription.toJSON() plus this device's "show message previews" choice;
// posting it again updates it. At most MAX_DEVICES per person, and 60 changes an hour.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { Budget, HOUR_MS } from "../http/rate-limit.ts";
import { validationError } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { checkEndpoint, MAX_ENDPOINT_LENGTH } from "./endpoint.ts";
import { deleteSubscription, MAX_DEVICES, saveSubscription, subscriptionsOf } from "./store.ts";

export const PUSH_CHANGES_PER_HOUR = 60;

const B64URL = "^[A-Za-z0-9_-]+=*$";
const endpointField = t.String({ minLength: 1, maxLength: MAX_ENDPOINT_LENGTH, error: `endpoint is the push service URL of PushSubscription (at most ${MAX_ENDPOINT_LENGTH} characters)` });

const subscribeBody = t.Object({
  endpoint: endpointField,
  keys: t.Object(
    { p256dh: t.String({ pattern: B64URL, maxLength: 200 }), auth: t.String({ pattern: B64URL, maxLength: 100 }) },
    { error: "keys must hold p256dh and auth, as PushSubscription.toJSON() gives them" },
  ),
  expirationTime: t.Optional(t.Union([t.Number(), t.Null()])),
  previews: t.Optional(t.Boolean({ error: "previews is true or false" })),
});

const unsubscribeBody = t.Object({ endpoint: endpointField });

const device = t.Object({ endpoint: t.String(), previews: t.Boolean(), created_at: t.String({ format: "date-time" }) });

const bytes = (b64url: string) => Buffer.from(b64url.replace(/=+$/, ""), "base64url");

export function pushRoutes(ctx: AppContext) {
  const changes = new Budget(PUSH_CHANGES_PER_HOUR, HOUR_MS);
  const view = (row: { endpoint: string; previews: boolean; createdAt: number }) => ({ endpoint: row.endpoint, previews: row.previews, created_at: new Date(row.createdAt).toISOString() });
  return new Elysia()
    .get("/api/push/key", () => ({ publicKey: ctx.push.publicKey }), {
      detail: operation({
        tag: "Notifications",
        public: true,
        summary: "The server's VAPID public key",
        description: "The applicationServerKey for PushManager.subscribe (base64url, uncompressed P-256).",
        ok: { description: "The key", schema: t.Object({ publicKey: t.String() }) },
      }),
    })
    .use(authGuard(ctx))
    .get("/api/push/subscriptions", async ({ user }) => ({ devices: (await subscriptionsOf(ctx.db, user.id)).map(view) }), {
      detail: operation({ tag: "Notifications", summary: "My devices with notifications on", ok: { description: "The devices", schema: t.Object({ devices: t.Array(device) }) } }),
    })
    .post("/api/push/subscriptions", async ({ body, user, session, set }) => {
      const input = validate(subscribeBody, body);
      const endpoint = checkEndpoint(input.endpoint, ctx.config.push.extraHosts);
      if (typeof endpoint === "string") throw validationError({ endpoint });
      const p256dh = bytes(input.keys.p256dh);
      if (p256dh.length !== 65 || p256dh[0] !== 4) throw validationError({ keys: "keys.p256dh must be an uncompressed P-256 public key (65 bytes)" });
      if (bytes(input.keys.auth).length !== 16) throw validationError({ keys: "keys.auth must be 16 bytes" });
      changes.take(user.id);
      const row = await saveSubscription(
        ctx.db,
        { userId: user.id, sessionId: session.id, endpoint: endpoint.url.href, p256dh: input.keys.p256dh.replace(/=+$/, ""), auth: input.keys.auth.replace(/=+$/, ""), previews: input.previews ?? false },
        Date.now(),
      );
      set.status = 201;
      return { device: view(row) };
    }, {
      detail: operation({
        tag: "Notifications",
        summary: "Turn notifications on for this device (or change its previews choice)",
        description: `The endpoint must be https on a known push service (FCM, Mozilla, Apple, Microsoft, or PUSH_HOSTS). At most ${MAX_DEVICES} devices a person (409 quota_exceeded past it); ${PUSH_CHANGES_PER_HOUR} changes an hour. The device is forgotten when this session ends.`,
        json: subscribeBody,
        ok: { status: 201, description: "The device", schema: t.Object({ device }) },
        errors: [400, 409, 413, 415, 429],
      }),
    })
    .delete("/api/push/subscriptions", async ({ body, user }) => {
      const input = validate(unsubscribeBody, body);
      changes.take(user.id);
      let href = input.endpoint;
      try {
        href = new URL(input.endpoint).href;
      } catch {
        // Not a URL: matches nothing stored.
      }
      return { removed: await deleteSubscription(ctx.db, user.id, href) };
    }, {
      detail: operation({
        tag: "Notifications",
        summary: "Turn notifications off for a device of mine",
        json: unsubscribeBody,
        ok: { description: "removed is false when that device had none", schema: t.Object({ removed: t.Boolean() }) },
        errors: [400, 413, 415, 429],
      }),
    });
}
