// The page code's own fallbacks for what the minimum browsers (Chrome 72, Firefox 59) lack, in a
// DOM with that API taken away.
import { afterAll, describe, expect, test } from "bun:test";
import { registerDom, unregisterDom } from "../support/dom.ts";

registerDom();
afterAll(() => unregisterDom());

/** Runs `body` with `name` removed from `target`, then puts it back. */
async function without<T>(target: object, name: string, body: () => Promise<T> | T): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  Reflect.deleteProperty(target, name);
  try {
    return await body();
  } finally {
    if (descriptor) Object.defineProperty(target, name, descriptor);
  }
}

describe("page code without the newer built-ins", () => {
  test("the cookie banner script runs without ResizeObserver (Firefox before 69) and still reserves the banner's room", async () => {
    document.body.innerHTML = `<div data-consent-banner><form method="post" action="/consent"><button name="choice" value="accept">Accept all</button></form></div>`;
    document.documentElement.style.removeProperty("--consent-height");
    await without(globalThis, "ResizeObserver", () => import("../../islands/enhance/consent.ts"));
    expect(document.documentElement.style.getPropertyValue("--consent-height")).toMatch(/^\d+px$/);
  });

  test("the country picker draws its button without Element.replaceChildren (Chrome before 86, Firefox before 78)", async () => {
    const { enhanceCountryPicker } = await import("../../islands/enhance/country-picker.ts");
    document.body.innerHTML = `<label for="c">Country</label><select id="c"><option value="">Select</option><option value="FR">France</option><option value="IT">Italy</option></select>`;
    const select = document.querySelector("select")!;
    await without(Element.prototype, "replaceChildren", () => {
      const picker = enhanceCountryPicker(select);
      picker.choose("IT");
      picker.choose("FR");
    });
    // One country in the button: the earlier choice was cleared, not appended to.
    expect([...document.querySelectorAll(".picker-button .picker-name")].map((n) => n.textContent)).toEqual(["France"]);
  });

  test("the nudity classifier rejects, never throws, where a module worker cannot be made (Chrome before 80)", async () => {
    process.env.NUDITY_WORKER_URL = "/build/nudity-worker-test.js";
    const scope = globalThis as { Worker?: unknown; OffscreenCanvas?: unknown };
    const saved = { Worker: scope.Worker, OffscreenCanvas: scope.OffscreenCanvas };
    scope.Worker = class {
      constructor() {
        throw new TypeError("Module scripts are not supported on DedicatedWorker yet.");
      }
    };
    scope.OffscreenCanvas = class {};
    try {
      const { getClassifier } = await import("../../islands/nudity/classifier.ts");
      let loading: Promise<unknown> | undefined;
      expect(() => {
        loading = getClassifier();
      }).not.toThrow();
      // The worker path was taken (not the "no module worker" answer), and it failed as a rejection.
      await expect(loading).rejects.toThrow("Module scripts are not supported");
    } finally {
      Object.assign(scope, saved);
      delete process.env.NUDITY_WORKER_URL;
    }
  });
});
