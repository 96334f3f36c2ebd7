// Component tests of the roulette's safety parts in happy-dom: the text chat box, the
// "Keep in touch" button, and Report and Block on the stranger's video.
import { reactRoot, unregisterDom } from "../support/dom.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { act } from "react";
import RouletteChat from "../../islands/roulette/RouletteChat.tsx";
import RouletteControls from "../../islands/roulette/RouletteControls.tsx";
import RouletteStage from "../../islands/roulette/RouletteStage.tsx";
import type { RouletteText } from "../../islands/roulette/roulette-state.ts";
import { partner } from "./fakes.ts";

afterAll(() => unregisterDom());
const dom = reactRoot();

const line = (id: number, mine: boolean, text: string): RouletteText => ({ id, mine, text, at: "2026-11-23T06:00:00.000Z" });

/** Types into a React-controlled input. */
function type(input: HTMLInputElement, value: string) {
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    setter?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

describe("roulette text chat", () => {
  test("lists my lines on the right and the stranger's on the left", () => {
    const el = dom.mount(<RouletteChat messages={[line(1, true, "hello"), line(2, false, "hi there")]} enabled onSend={() => true} />);
    const items = [...el.querySelectorAll(".roulette-line")];
    expect(items.map((i) => [i.className, i.textContent])).toEqual([
      ["roulette-line is-mine", "You: hello"],
      ["roulette-line is-theirs", "Stranger: hi there"],
    ]);
  });

  test("Enter sends the text and empties the box", () => {
    const sent: string[] = [];
    const el = dom.mount(<RouletteChat messages={[]} enabled onSend={(t) => sent.push(t) > 0} />);
    const input = el.querySelector("input") as HTMLInputElement;
    type(input, "nice to meet you");
    act(() => void el.querySelector("form")?.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
    expect(sent).toEqual(["nice to meet you"]);
    expect(input.value).toBe("");
  });

  test("keeps at most 500 characters and shows a counter near the limit", () => {
    const el = dom.mount(<RouletteChat messages={[]} enabled onSend={() => true} />);
    const input = el.querySelector("input") as HTMLInputElement;
    expect(input.maxLength).toBe(500);
    type(input, "x".repeat(350));
    expect(el.querySelector(".roulette-chat-counter")).toBeNull();
    type(input, "x".repeat(600));
    expect(input.value).toHaveLength(500);
    expect(el.querySelector(".roulette-chat-counter")?.textContent).toBe("500/500");
  });

  test("is disabled while not connected", () => {
    const el = dom.mount(<RouletteChat messages={[]} enabled={false} onSend={() => true} />);
    expect((el.querySelector("input") as HTMLInputElement).disabled).toBe(true);
    expect((el.querySelector("button") as HTMLButtonElement).disabled).toBe(true);
    expect(el.textContent).toContain("Text chat opens when you are connected.");
  });
});

describe("Keep in touch button", () => {
  const names = (el: HTMLElement) => [...el.querySelectorAll("button")].map((b) => b.textContent?.trim());

  test("shows while connected, before Next Partner and Stop, and calls its action", () => {
    let pressed = 0;
    const el = dom.mount(
      <RouletteControls status="connected" starting={false} ready onStart={() => {}} onNext={() => {}} onStop={() => {}} onKeepInTouch={() => pressed++} />,
    );
    expect(names(el)).toEqual(["Keep in touch", "Next Partner", "Stop"]);
    act(() => el.querySelector("button")?.click());
    expect(pressed).toBe(1);
  });

  test("once pressed, stays pressed and says it waits for the stranger", () => {
    const el = dom.mount(
      <RouletteControls status="connected" starting={false} ready keepInTouch onStart={() => {}} onNext={() => {}} onStop={() => {}} onKeepInTouch={() => {}} />,
    );
    const keep = el.querySelector("button");
    expect(keep?.textContent?.trim()).toBe("Waiting for the stranger to choose too");
    expect(keep?.getAttribute("aria-pressed")).toBe("true");
    expect(keep?.disabled).toBe(true);
  });

  test("is not offered while searching", () => {
    const el = dom.mount(<RouletteControls status="searching" starting={false} ready onStart={() => {}} onNext={() => {}} onStop={() => {}} onKeepInTouch={() => {}} />);
    expect(names(el)).toEqual(["Stop"]);
  });
});

describe("Report and Block on the stranger's video", () => {
  test("show only over a live stranger; Report hands over their video, Block calls its action", () => {
    const reported: (HTMLVideoElement | null)[] = [];
    let blocked = 0;
    const el = dom.mount(
      <RouletteStage
        status="connected"
        statusText="Connected with Stranger"
        partner={partner()}
        localStream={null}
        remoteStream={new MediaStream()}
        onReport={(video) => reported.push(video)}
        onBlock={() => blocked++}
      />,
    );
    const [report, block] = [...el.querySelectorAll(".roulette-safety button")] as HTMLButtonElement[];
    act(() => report?.click());
    act(() => block?.click());
    expect(reported[0]?.getAttribute("aria-label")).toBe("Partner's video");
    expect(blocked).toBe(1);
    expect(el.querySelector(".roulette-partner")?.textContent).toBe("Stranger28 · 🇫🇷 France");
  });

  test("are not there while searching", () => {
    const el = dom.mount(
      <RouletteStage status="searching" statusText="" partner={null} localStream={null} remoteStream={null} onReport={() => {}} onBlock={() => {}} />,
    );
    expect(el.querySelector(".roulette-safety")).toBeNull();
  });
});
