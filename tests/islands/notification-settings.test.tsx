// Settings → Notifications (issue 26) with a scripted API and a stand-in for the browser's push
// subscription: off by default, on after permission, previews a separate choice posted with the
// device, off again deleting it; a browser without push says so.
import "../support/dom.ts"; // happy-dom in place before the islands load
import { afterEach, describe, expect, test } from "bun:test";
import NotificationSettings from "../../islands/push/NotificationSettings.tsx";
import { bodyOf, chatDom, click, harness, settle, text } from "./harness.ts";

const { render } = chatDom();

const KEY = "BOr1pKVkB4-TBrHyfrTnSTz0Sic9kaSyD3C9TB_-H8yXdcRZ6aN4Gi5A1DyvKrHQOITs_dU6S7l0LIk9UOcFi4M";
const subscriptionJson = { endpoint: "https://fcm.googleapis.com/fcm/send/device-1", expirationTime: null, keys: { p256dh: "p", auth: "a" } };

/** navigator.serviceWorker, PushManager and Notification as a browser with push has them. */
function pushBrowser(permission: NotificationPermission = "default") {
  let current: { endpoint: string; options: { applicationServerKey: ArrayBuffer | null }; toJSON(): unknown; unsubscribe(): Promise<boolean> } | null = null;
  const log: string[] = [];
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (options: { applicationServerKey: Uint8Array }) => {
      log.push("subscribe");
      current = {
        endpoint: subscriptionJson.endpoint,
        options: { applicationServerKey: options.applicationServerKey.slice().buffer },
        toJSON: () => subscriptionJson,
        unsubscribe: async () => {
          log.push("unsubscribe");
          current = null;
          return true;
        },
      };
      return current;
    },
  };
  const set = (target: object, name: string, value: unknown) => Object.defineProperty(target, name, { value, configurable: true, writable: true });
  set(navigator, "serviceWorker", { ready: Promise.resolve({ pushManager }) });
  set(window, "PushManager", function PushManager() {});
  set(window, "isSecureContext", true);
  set(window, "Notification", {
    permission,
    requestPermission: async () => {
      log.push("permission");
      return "granted";
    },
  });
  return log;
}

afterEach(() => {
  for (const [target, name] of [[navigator, "serviceWorker"], [window, "PushManager"], [window, "Notification"]] as const) delete (target as unknown as Record<string, unknown>)[name];
});

const checkboxes = (el: HTMLElement) => [...el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];

describe("Notifications", () => {
  test("a browser without push says it cannot", async () => {
    const { controller } = harness();
    const el = await render(controller, <NotificationSettings />);
    await settle();
    expect(text(el)).toContain("This browser cannot show notifications from Web Chat");
    expect(checkboxes(el)).toEqual([]);
  });

  test("blocked by the browser, it says where to allow them", async () => {
    pushBrowser("denied");
    const { controller } = harness({ "GET /api/push/subscriptions": () => ({ devices: [] }) });
    const el = await render(controller, <NotificationSettings />);
    await settle();
    expect(text(el)).toContain("Notifications are blocked for this site");
  });

  test("off by default; on asks permission and posts the device with previews off; previews and off follow", async () => {
    const log = pushBrowser();
    const posted: unknown[] = [];
    const deleted: unknown[] = [];
    const { controller, toasts } = harness({
      "GET /api/push/subscriptions": () => ({ devices: [] }),
      "GET /api/push/key": () => ({ publicKey: KEY }),
      "POST /api/push/subscriptions": (init) => {
        const body = bodyOf(init) as { previews: boolean };
        posted.push(body);
        return { device: { endpoint: subscriptionJson.endpoint, previews: body.previews, created_at: "2026-11-26T10:00:00.000Z" } };
      },
      "DELETE /api/push/subscriptions": (init) => {
        deleted.push(bodyOf(init));
        return { removed: true };
      },
    });
    const el = await render(controller, <NotificationSettings />);
    await settle();
    const [on, previews] = checkboxes(el);
    expect(text(on!.closest("label"))).toContain("Notifications on this device");
    expect(text(previews!.closest("label"))).toContain("Show message previews in notifications");
    expect([on!.checked, previews!.checked, previews!.disabled]).toEqual([false, false, true]);

    await click(on);
    await settle();
    expect(log).toEqual(["permission", "subscribe"]);
    expect(posted).toEqual([{ ...subscriptionJson, previews: false }]);
    expect([checkboxes(el)[0]!.checked, checkboxes(el)[1]!.disabled]).toEqual([true, false]);

    await click(checkboxes(el)[1]);
    await settle();
    expect(posted[1]).toEqual({ ...subscriptionJson, previews: true });
    expect(checkboxes(el)[1]!.checked).toBe(true);

    await click(checkboxes(el)[0]);
    await settle();
    expect(deleted).toEqual([{ endpoint: subscriptionJson.endpoint }]);
    expect(log).toEqual(["permission", "subscribe", "unsubscribe"]);
    expect(checkboxes(el)[0]!.checked).toBe(false);
    expect(toasts).toEqual(["success:Notifications are on for this device", "success:Notification settings saved", "success:Notifications are off for this device"]);
  });

  test("a device the server already knows shows on, with its previews choice", async () => {
    pushBrowser("granted");
    const { controller } = harness({
      "GET /api/push/subscriptions": () => ({ devices: [{ endpoint: subscriptionJson.endpoint, previews: true, created_at: "2026-11-26T10:00:00.000Z" }] }),
      "GET /api/push/key": () => ({ publicKey: KEY }),
      "POST /api/push/subscriptions": () => ({ device: { endpoint: subscriptionJson.endpoint, previews: false, created_at: "2026-11-26T10:00:00.000Z" } }),
    });
    // The browser holds a subscription from before.
    const registration = await (navigator.serviceWorker as unknown as { ready: Promise<{ pushManager: { subscribe(o: { applicationServerKey: Uint8Array }): Promise<unknown> } }> }).ready;
    await registration.pushManager.subscribe({ applicationServerKey: new Uint8Array(65) });
    const el = await render(controller, <NotificationSettings />);
    await settle();
    expect(checkboxes(el).map((c) => c.checked)).toEqual([true, true]);
  });
});
