// Component tests of the roulette's stage, buttons and filters in happy-dom.
import { reactRoot, unregisterDom } from "../support/dom.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { act, type ReactElement } from "react";
import RouletteControls from "../../islands/roulette/RouletteControls.tsx";
import RouletteFilters from "../../islands/roulette/RouletteFilters.tsx";
import RouletteStage from "../../islands/roulette/RouletteStage.tsx";
import type { RouletteFilters as Filters, RouletteStatus } from "../../islands/roulette/roulette-state.ts";
import { partner } from "./fakes.ts";

afterAll(() => unregisterDom());
const dom = reactRoot();

const show = (element: ReactElement): HTMLElement => dom.mount(element);

const names = (el: HTMLElement) => [...el.querySelectorAll("button")].map((b) => b.textContent?.trim());

describe("roulette buttons", () => {
  const cases: [RouletteStatus, string[]][] = [
    ["disconnected", ["Start Video Chat"]],
    ["searching", ["Stop"]],
    ["connecting", ["Stop"]],
    ["connected", ["Next Partner", "Stop"]],
  ];
  for (const [status, expected] of cases) {
    test(`${status} shows ${expected.join(" and ")}`, () => {
      const el = show(<RouletteControls status={status} starting={false} ready onStart={() => {}} onNext={() => {}} onStop={() => {}} />);
      expect(names(el)).toEqual(expected);
    });
  }

  test("Start is disabled while the camera opens or before the socket exists", () => {
    const el = show(<RouletteControls status="disconnected" starting ready onStart={() => {}} onNext={() => {}} onStop={() => {}} />);
    expect(el.querySelector("button")?.disabled).toBe(true);
  });

  test("each button calls its action", () => {
    const calls: string[] = [];
    const el = show(
      <RouletteControls status="connected" starting={false} ready onStart={() => calls.push("start")} onNext={() => calls.push("next")} onStop={() => calls.push("stop")} />,
    );
    for (const button of el.querySelectorAll("button")) act(() => button.click());
    expect(calls).toEqual(["next", "stop"]);
  });
});

describe("roulette stage", () => {
  test("shows the status line and labels both videos", () => {
    const el = show(
      <RouletteStage status="searching" statusText="Looking for someone to chat with..." partner={null} localStream={new MediaStream()} remoteStream={null} />,
    );
    expect(el.querySelector('[role="status"]')?.textContent).toBe("Looking for someone to chat with...");
    expect([...el.querySelectorAll("video")].map((v) => v.getAttribute("aria-label"))).toEqual(["Partner's video", "Your camera"]);
  });

  test("names the partner with age and country once paired", () => {
    const el = show(
      <RouletteStage status="connected" statusText="Connected with Stranger" partner={partner("pair-9")} localStream={null} remoteStream={new MediaStream()} />,
    );
    expect(el.querySelector(".roulette-partner")?.textContent).toBe("Stranger28 · 🇫🇷 France");
    expect(el.querySelector('video[aria-label="Your camera"]')).toBeNull();
  });
});

describe("roulette filters", () => {
  test("offer any, women or men, and any country or one from the list", () => {
    const changes: Filters[] = [];
    const el = show(
      <RouletteFilters
        filters={{ gender: "any", country: "any" }}
        countries={[{ code: "DE", name: "Germany" }, { code: "FR", name: "France" }]}
        onChange={(f) => changes.push(f)}
      />,
    );
    const [gender, country] = [...el.querySelectorAll("select")];
    expect([...(gender?.options ?? [])].map((o) => o.value)).toEqual(["any", "female", "male"]);
    expect([...(country?.options ?? [])].map((o) => o.value)).toEqual(["any", "DE", "FR"]);
    act(() => {
      if (!country) return;
      country.value = "FR";
      country.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(changes).toEqual([{ gender: "any", country: "FR" }]);
    expect(el.querySelector("label")?.textContent).toContain("Gender");
  });
});
