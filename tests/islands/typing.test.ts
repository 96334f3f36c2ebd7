import { expect, test } from "bun:test";
import { TypingNotifier } from "../../islands/lib/typing.ts";

import { wait } from "./waits.ts";

test("typing_start goes once for non-empty text, typing_stop after the idle time", async () => {
  const sent: boolean[] = [];
  const typing = new TypingNotifier((t) => sent.push(t), 40);
  typing.input("h");
  typing.input("he");
  await wait(20);
  typing.input("hel");
  await wait(25);
  expect(sent).toEqual([true]);
  await wait(30);
  expect(sent).toEqual([true, false]);
});

test("whitespace alone does not start typing", () => {
  const sent: boolean[] = [];
  new TypingNotifier((t) => sent.push(t), 40).input("   ");
  expect(sent).toEqual([]);
});

test("emptying the text or sending stops typing at once, and only once", async () => {
  const sent: boolean[] = [];
  const typing = new TypingNotifier((t) => sent.push(t), 40);
  typing.input("hi");
  typing.input("");
  expect(sent).toEqual([true, false]);
  typing.input("again");
  typing.stop();
  typing.stop();
  await wait(60);
  expect(sent).toEqual([true, false, true, false]);
});
