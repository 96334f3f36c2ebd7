// Settings → Safety, "Blur nudity in video and pictures" (issue 12), in happy-dom over a scripted API.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import SettingsMain from "../../islands/chat/SettingsMain.tsx";
import SettingsSidebar from "../../islands/chat/SettingsSidebar.tsx";
import NudityBlurSetting from "../../islands/safety/NudityBlurSetting.tsx";
import { me } from "./fixtures.ts";
import { bodyOf, chatDom, click, harness, settle, text } from "./harness.ts";
import { button } from "./queries.ts";

const { render } = chatDom();

const checkbox = (root: ParentNode) => root.querySelector<HTMLInputElement>('input[type="checkbox"]')!;

/** A scripted PUT /api/users/nudity-blur that records each body it got. */
function blurRoute(bodies: unknown[], fail = false) {
  return {
    "PUT /api/users/nudity-blur": (init: RequestInit | undefined) => {
      bodies.push(bodyOf(init));
      if (fail) return new Response(JSON.stringify({ error: "Too many changes", code: "rate_limited" }), { status: 429 });
      const { blur_nudity } = bodyOf(init) as { blur_nudity: boolean };
      return { user: me({ blur_nudity }) };
    },
  };
}

describe("Blur nudity in video and pictures", () => {
  test("is on by default and says the check happens on this device", async () => {
    const { controller } = harness();
    const el = await render(controller, <NudityBlurSetting />);
    expect(checkbox(el).checked).toBe(true);
    expect(text(el)).toContain("Blur nudity in video and pictures");
    expect(text(el)).toContain("no video frame or picture is sent anywhere");
  });

  test("turning it off asks first; 'Keep blurring' sends nothing and leaves it on", async () => {
    const bodies: unknown[] = [];
    const { controller, calls } = harness(blurRoute(bodies));
    const el = await render(controller, <NudityBlurSetting />);
    await click(checkbox(el));
    expect(el.querySelector('[role="alertdialog"]')).not.toBeNull();
    await click(button(el, "Keep blurring"));
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(calls).toEqual([]);
    expect(checkbox(el).checked).toBe(true);
    expect(controller.store.me.value.blur_nudity).toBe(true);
  });

  test("'Turn off' saves false on the account and confirms it; turning it on again needs no question", async () => {
    const bodies: unknown[] = [];
    const { controller, toasts } = harness(blurRoute(bodies));
    const el = await render(controller, <NudityBlurSetting />);
    await click(checkbox(el));
    await click(button(el, "Turn off"));
    await settle();
    expect(bodies).toEqual([{ blur_nudity: false }]);
    expect(controller.store.me.value.blur_nudity).toBe(false);
    expect(checkbox(el).checked).toBe(false);
    await click(checkbox(el));
    await settle();
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(bodies).toEqual([{ blur_nudity: false }, { blur_nudity: true }]);
    expect(checkbox(el).checked).toBe(true);
    expect(toasts).toEqual(["success:Nudity will no longer be blurred", "success:Nudity will be blurred"]);
  });

  test("asks only once in this browser: after one confirmation it turns off without asking, but asks another account", async () => {
    const bodies: unknown[] = [];
    const first = harness(blurRoute(bodies));
    let el = await render(first.controller, <NudityBlurSetting />);
    await click(checkbox(el));
    await click(button(el, "Turn off"));
    await settle();
    await click(checkbox(el));
    await settle();
    expect(checkbox(el).checked).toBe(true);
    await click(checkbox(el));
    await settle();
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(bodies).toEqual([{ blur_nudity: false }, { blur_nudity: true }, { blur_nudity: false }]);
    expect(checkbox(el).checked).toBe(false);
    const other = harness(blurRoute(bodies), me({ id: 9, username: "someone_else" }));
    el = await render(other.controller, <NudityBlurSetting />);
    await click(checkbox(el));
    expect(el.querySelector('[role="alertdialog"]')).not.toBeNull();
  });

  test("is its own Settings → Safety section, no longer under Privacy", async () => {
    const { controller } = harness();
    const el = await render(
      controller,
      <>
        <SettingsSidebar />
        <SettingsMain />
      </>,
    );
    const entry = Array.from(el.querySelectorAll(".settings-menu button")).find((b) => text(b.querySelector(".menu-title")) === "Safety");
    expect(text(entry)).toContain("Blur nudity in video and pictures");
    await click(entry);
    await settle();
    expect(controller.store.settingsSection.value).toBe("safety");
    expect(text(el.querySelector("#safety-heading"))).toBe("Safety");
    expect(checkbox(el).checked).toBe(true);
    await act(async () => controller.selectSettingsSection("privacy"));
    await settle();
    expect(text(el)).toContain("Who can message and call me");
    expect(el.querySelector('input[type="checkbox"]')).toBeNull();
  });

  test("a refused save says so and keeps the blur on", async () => {
    const bodies: unknown[] = [];
    const { controller, toasts } = harness(blurRoute(bodies, true));
    const el = await render(controller, <NudityBlurSetting />);
    await click(checkbox(el));
    await click(button(el, "Turn off"));
    await settle();
    expect(bodies).toEqual([{ blur_nudity: false }]);
    expect(checkbox(el).checked).toBe(true);
    expect(controller.store.me.value.blur_nudity).toBe(true);
    expect(toasts).toEqual(["error:Too many changes"]);
  });
});
