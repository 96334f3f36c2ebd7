// The emoji picker in the page's language (issue 24), in happy-dom: its categories come from the
// catalogue, its search matches Spanish emoji names (the package has none in Arabic, so there it
// stays on English ones), and in English it is the picker exactly as it comes.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import EmojiPicker from "emoji-picker-react";
import { act, type ReactNode } from "react";
import EmojiPopover from "../../islands/chat/EmojiPopover.tsx";
import { translator } from "../../src/i18n/catalogue.ts";
import { inLanguage } from "./in-language.ts";
import { chatDom, settle, text } from "./harness.ts";
import { typeInto } from "./queries.ts";

const { dom } = chatDom();


const CATEGORY_KEYS = [
  "chat.emoji_suggested",
  "chat.emoji_custom",
  "chat.emoji_smileys_people",
  "chat.emoji_animals_nature",
  "chat.emoji_food_drink",
  "chat.emoji_travel_places",
  "chat.emoji_activities",
  "chat.emoji_objects",
  "chat.emoji_symbols",
  "chat.emoji_flags",
] as const;

/** Mounts `node` and lets the picker load (a language's emoji names come in a chunk of their own). */
async function mountPicker(node: ReactNode): Promise<HTMLElement> {
  const el = await dom.mountAsync(node);
  const until = Date.now() + 20_000;
  while (el.querySelectorAll(".epr-emoji-category-label").length === 0) {
    if (Date.now() > until) throw new Error("the emoji picker showed no category within 20 s");
    await settle();
  }
  return el;
}

const popover = () => mountPicker(<EmojiPopover open onPick={() => {}} onClose={() => {}} />);
/** Every category's heading, also those the picker hides while they are empty (Custom Emojis, as this product has none). */
const headings = (el: HTMLElement) => Array.from(el.querySelectorAll(".epr-emoji-category-label")).map((h) => text(h));
const navigation = (el: HTMLElement) => Array.from(el.querySelectorAll(".epr-cat-btn")).map((b) => b.getAttribute("aria-label"));
/** What the picker's live region says once it has searched for `query`. */
async function search(el: HTMLElement, query: string): Promise<string> {
  const status = () => text(el.querySelector('[role="status"]'));
  const before = status();
  await act(async () => typeInto(el.querySelector("input")!, query));
  const until = Date.now() + 10_000;
  while (status() === before || status() === "") {
    if (Date.now() > until) throw new Error(`the emoji picker did not search for "${query}" within 10 s`);
    await settle();
  }
  return status();
}

describe("the emoji picker", () => {
  test("in Spanish: its categories and headings come from the catalogue, and 'gato' finds emojis", () =>
    inLanguage("es", async () => {
      const say = translator("es");
      const el = await popover();
      const spanish = CATEGORY_KEYS.map((key) => say(key));
      expect(spanish).toContain("Animales y naturaleza");
      expect(headings(el)).toEqual(spanish);
      expect(navigation(el)).toEqual(spanish.filter((name) => name !== say("chat.emoji_custom")));
      expect(el.querySelector("input")?.getAttribute("placeholder")).toBe("Buscar");
      expect(el.querySelector('[role="tablist"]')?.getAttribute("aria-label")).toBe("Categorías");
      expect(el.querySelector(".epr-btn-clear-search")?.getAttribute("aria-label")).toBe("Borrar");
      // happy-dom lays out no emoji to see, but the picker says how many it found.
      expect(await search(el, "gato")).toMatch(/^[1-9]\d* resultados\. Usa las flechas arriba y abajo para moverte\.$/);
    }));

  test("in Arabic: its categories come from the catalogue; search stays on English names", () =>
    inLanguage("ar", async () => {
      const say = translator("ar");
      const el = await popover();
      const arabic = CATEGORY_KEYS.map((key) => say(key));
      expect(arabic).toContain("الأعلام");
      expect(headings(el)).toEqual(arabic);
      expect(navigation(el)).toEqual(arabic.filter((name) => name !== say("chat.emoji_custom")));
      expect(await search(el, "قطة")).toBe(say("chat.emoji_none"));
      expect(await search(el, "cat")).toMatch(/^عدد النتائج: [1-9]\d*\. /);
    }));

  test("in English: the picker exactly as it comes, to the last attribute", async () => {
    const own = await mountPicker(<EmojiPicker width={300} height={400} skinTonesDisabled previewConfig={{ showPreview: false }} lazyLoadEmojis />);
    expect(navigation(own)).toEqual(["Frequently Used", "Smileys & People", "Animals & Nature", "Food & Drink", "Travel & Places", "Activities", "Objects", "Symbols", "Flags"]);
    const expected = own.querySelector(".EmojiPickerReact")?.outerHTML;
    dom.unmount();
    const el = await popover();
    expect(el.querySelector(".EmojiPickerReact")?.outerHTML).toBe(expected!);
    expect(await search(el, "gato")).toBe("No results found");
  });
});
