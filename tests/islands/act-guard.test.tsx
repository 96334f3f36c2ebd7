// tests/support/act-guard.ts: a component test that ends with its act() still running (as one that
// timed out does) fails alone; the tests after it still render. Without the guard, the next
// test's act() overlapped the late one and every test after them rendered nothing.
import { expect, test } from "bun:test";
import { act, createElement } from "react";
import { reactRoot } from "../support/dom.ts";
import { actScopeOpen } from "../support/act-guard.ts";

const root = reactRoot();

test("a test leaves its act() running, as one that timed out does", () => {
  act(async () => Bun.sleep(300)).then(
    () => {},
    () => {},
  );
  expect(actScopeOpen()).toBe(true);
});

test("the next test's act() outlasts the late one, and the scope still closes", async () => {
  await act(async () => Bun.sleep(500));
  expect(actScopeOpen()).toBe(false);
});

test("and the tests after them render", () => {
  const el = root.mount(createElement("p", null, "still rendering"));
  expect(el.textContent).toBe("still rendering");
});
