// Component tests of the call overlay in happy-dom: texts, labels, focus and Escape.
import { afterAll, describe, expect, test } from "bun:test";
import { act } from "react";
import { reactRoot, unregisterDom } from "../support/dom.ts";
import { callReducer, initialCallState, type CallAction, type CallRequest, type CallState } from "../../islands/calls/call-state.ts";
import CallView, { type CallActions } from "../../islands/calls/CallView.tsx";
import { button } from "../islands/queries.ts";

afterAll(() => unregisterDom());
const dom = reactRoot();

const caller: CallRequest = { role: "caller", contact: { id: 2, name: "bob" } };
const receiver: CallRequest = { role: "receiver", contact: { id: 1, name: "Alice" }, callerPeerId: "p" };
const ready: CallAction[] = [{ type: "media_ready" }, { type: "peer_open", peerId: "me" }];
const stateOf = (request: CallRequest, ...actions: CallAction[]): CallState => actions.reduce(callReducer, initialCallState(request));

function recorder() {
  const calls: string[] = [];
  const reported: (HTMLVideoElement | null)[] = [];
  const actions: CallActions = {
    accept: () => calls.push("accept"),
    decline: () => calls.push("decline"),
    hangUp: () => calls.push("hangUp"),
    toggleMute: () => calls.push("toggleMute"),
    toggleCamera: () => calls.push("toggleCamera"),
    report: (video) => {
      calls.push("report");
      reported.push(video);
    },
  };
  return { calls, actions, reported };
}

function show(state: CallState, actions: CallActions, remote: MediaStream | null = null) {
  return dom.mount(<CallView state={state} localStream={new MediaStream()} remoteStream={remote} actions={actions} />);
}

describe("call screens", () => {
  test("camera loading says 'Setting up camera...'", () => {
    const el = show(stateOf(caller), recorder().actions);
    expect(el.textContent).toContain("Setting up camera...");
    expect(el.querySelector('[role="dialog"]')?.getAttribute("aria-modal")).toBe("true");
  });

  test("incoming shows the caller's initial, name, 'is calling...', Accept and Decline", () => {
    const { calls, actions } = recorder();
    const el = show(stateOf(receiver, ...ready), actions);
    expect(el.querySelector(".call-avatar")?.textContent).toBe("A");
    expect(el.textContent).toContain("Alice");
    expect(el.textContent).toContain("is calling...");
    act(() => button(el, "Accept")?.click());
    act(() => button(el, "Decline")?.click());
    expect(calls).toEqual(["accept", "decline"]);
    expect(document.activeElement?.textContent).toContain("Accept");
  });

  test("incoming shows the caller's picture when known, and no camera preview at all", () => {
    const withPicture: CallRequest = { ...receiver, contact: { id: 1, name: "Alice", avatarUrl: "/uploads/avatars/a.webp" } };
    const el = show(stateOf(withPicture, { type: "peer_open", peerId: "me" }), recorder().actions);
    expect(el.querySelector(".call-avatar img")?.getAttribute("src")).toBe("/uploads/avatars/a.webp");
    expect(el.querySelectorAll("video")).toHaveLength(0);
  });

  test("Accept shows 'Setting up camera...' until the camera is ready", () => {
    const el = show(stateOf(receiver, { type: "peer_open", peerId: "me" }, { type: "accepted" }), recorder().actions);
    expect(el.textContent).toContain("Setting up camera...");
    expect(el.querySelectorAll("video")).toHaveLength(0);
  });

  test("outgoing shows 'Calling' and the name, 'Waiting for answer' and Cancel", () => {
    const { calls, actions } = recorder();
    const el = show(stateOf(caller, ...ready), actions);
    expect(el.querySelector("h2")?.textContent).toBe("Calling bob");
    expect(el.textContent).toContain("Waiting for answer");
    act(() => button(el, "Cancel")?.click());
    expect(calls).toEqual(["hangUp"]);
  });

  test("connected shows both videos, labelled, and the three labelled controls", () => {
    const { calls, actions } = recorder();
    const state = stateOf(receiver, ...ready, { type: "accepted" }, { type: "remote_stream", streamId: "r" }, { type: "toggle_mute" });
    const el = show(state, actions, new MediaStream());
    const labels = [...el.querySelectorAll("video")].map((v) => v.getAttribute("aria-label"));
    expect(labels).toEqual(["Alice's video", "Your camera"]);
    expect(button(el, "Unmute microphone")?.getAttribute("aria-pressed")).toBe("true");
    expect(button(el, "Turn camera off")?.getAttribute("aria-pressed")).toBe("false");
    act(() => button(el, "Unmute microphone")?.click());
    act(() => button(el, "Turn camera off")?.click());
    act(() => button(el, "End call")?.click());
    expect(calls).toEqual(["toggleMute", "toggleCamera", "hangUp"]);
  });

  test("Report on the connected screen hands over the other person's video for the still", () => {
    const { calls, actions, reported } = recorder();
    const state = stateOf(receiver, ...ready, { type: "accepted" }, { type: "remote_stream", streamId: "r" });
    const el = show(state, actions, new MediaStream());
    act(() => button(el, "Report")?.click());
    expect(calls).toEqual(["report"]);
    expect(reported[0]?.getAttribute("aria-label")).toBe("Alice's video");
  });

  test("connecting shows the in-call layout with a 'Connecting to' line until the remote video arrives", () => {
    const el = show(stateOf(receiver, ...ready, { type: "accepted" }), recorder().actions);
    expect(el.textContent).toContain("Connecting to Alice...");
    expect(button(el, "End call")).toBeDefined();
  });
});

describe("keyboard", () => {
  test("Escape does not hang up and does not reach the page behind", () => {
    const { calls, actions } = recorder();
    let pageSawEscape = false;
    const onPage = (e: KeyboardEvent) => {
      if (e.key === "Escape") pageSawEscape = true;
    };
    document.addEventListener("keydown", onPage);
    const el = show(stateOf(caller, ...ready), actions);
    act(() => {
      el.querySelector("button")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    document.removeEventListener("keydown", onPage);
    expect(calls).toEqual([]);
    expect(pageSawEscape).toBe(false);
    expect(el.querySelector('[role="dialog"]')).not.toBeNull();
  });

  test("while a dialog opened from the call is on top, focus may leave the call for it", () => {
    const state = stateOf(receiver, ...ready, { type: "accepted" }, { type: "remote_stream", streamId: "r" });
    const el = dom.mount(<CallView state={state} localStream={null} remoteStream={new MediaStream()} actions={recorder().actions} focusTrapped={false} />);
    const outside = document.createElement("button");
    document.body.append(outside);
    act(() => outside.focus());
    expect(document.activeElement).toBe(outside);
    expect(el.querySelector('[role="dialog"]')).not.toBeNull();
  });

  test("Tab from the last control wraps to the first, Shift+Tab from the first to the last", () => {
    const state = stateOf(receiver, ...ready, { type: "accepted" }, { type: "remote_stream", streamId: "r" });
    const el = show(state, recorder().actions, new MediaStream());
    const end = button(el, "End call");
    const report = button(el, "Report");
    end?.focus();
    act(() => void document.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true })));
    expect(document.activeElement).toBe(report ?? null);
    act(() => void document.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", shiftKey: true, bubbles: true })));
    expect(document.activeElement).toBe(end ?? null);
  });
});
