// Issue 9, finding 10: the session token lives in the chat island's memory, never in
// localStorage; a token an earlier version stored is removed; the props element that carried it
// leaves the page once read.
import { reactRoot, registerDom, unregisterDom } from "../support/dom.ts";

import { afterAll, afterEach, describe, expect, spyOn, test } from "bun:test";
import { act, createElement } from "react";
import ChatApp from "../../islands/ChatApp.tsx";
import { takeIslandProps } from "../../islands/lib/island-props.ts";
import { forgetSession, forgetStoredToken, KEYS } from "../../islands/lib/storage.ts";
import { me } from "./fixtures.ts";

/** What the chat screen asks for as it starts, answered for a user with nobody to talk to. */
const EMPTY_ANSWERS: Record<string, object> = {
  "/api/users": { users: [], total: 0, online: 0 },
  "/api/messages/chat-users-with-messages": { users: [] },
  "/api/messages/unread/count": { unread_count: 0 },
  "/api/messages/unread/per-user": { items: [] },
  "/api/warnings": { warnings: [] },
};

registerDom();
afterAll(() => unregisterDom());
const dom = reactRoot();
afterEach(() => localStorage.clear());

describe("the session token in the browser", () => {
  test("a token an earlier version left in localStorage is removed and the saved selection stays", () => {
    localStorage.setItem("token", "old.token");
    localStorage.setItem("selectedUserId", "7");
    forgetStoredToken();
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("selectedUserId")).toBe("7");
  });

  test("ending the session forgets both the old token and the user id", () => {
    localStorage.setItem("token", "old.token");
    localStorage.setItem("userId", "1");
    forgetSession();
    expect([localStorage.getItem("token"), localStorage.getItem("userId")]).toEqual([null, null]);
  });

  test("no storage key is meant for the token", () => {
    expect(Object.values(KEYS)).not.toContain("token");
  });

  test("an island's props are read once and their element leaves the page", () => {
    document.body.innerHTML =
      '<div id="island-ChatApp" data-island="ChatApp"></div><script type="application/json" id="island-ChatApp-props">{"token":"s.sig","flash":null}</script>';
    const el = document.getElementById("island-ChatApp")!;
    expect(takeIslandProps(el)).toEqual({ token: "s.sig", flash: null });
    expect(document.getElementById("island-ChatApp-props")).toBeNull();
    expect(document.body.innerHTML).not.toContain("s.sig");
    expect(takeIslandProps(el)).toEqual({});
  });

  test("the chat screen works from the token it was given, stores only the user id and removes an old token", async () => {
    localStorage.setItem("token", "left.by-an-old-version");
    const seen: string[] = [];
    const answer = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get("authorization") ?? "");
      const body = EMPTY_ANSWERS[String(input).split("?")[0] ?? ""];
      return body ? Response.json(body) : Response.json({ error: "Not found", code: "not_found" }, { status: 404 });
    };
    const fetchSpy = spyOn(globalThis, "fetch").mockImplementation(Object.assign(answer, { preconnect: fetch.preconnect }));
    try {
      const props = { token: "in.memory", user: me(), flash: null, ice: { iceServers: [], iceTransportPolicy: "all" as const } };
      await dom.mountAsync(createElement(ChatApp, props));
      await act(() => Bun.sleep(20));
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(["Bearer in.memory"]));
      expect(localStorage.getItem("userId")).toBe(String(me().id));
      expect(localStorage.getItem("token")).toBeNull();
      expect(Object.values({ ...localStorage })).not.toContain("in.memory");
    } finally {
      dom.unmount();
      fetchSpy.mockRestore();
    }
  });
});
