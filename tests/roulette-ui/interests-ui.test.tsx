// Component tests (happy-dom) of the interest tag input, the language picker, the roulette's new
// filters, its "Looking for someone who likes..." line and the shared interests on the stage.
import { reactRoot, unregisterDom } from "../support/dom.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { act, useState } from "react";
import TagInput, { SUGGEST_DELAY_MS } from "../../islands/interests/TagInput.tsx";
import LanguagePicker from "../../islands/interests/LanguagePicker.tsx";
import RouletteFilters from "../../islands/roulette/RouletteFilters.tsx";
import RouletteStage from "../../islands/roulette/RouletteStage.tsx";
import { initialRouletteState, statusText, type RouletteFilters as Filters } from "../../islands/roulette/roulette-state.ts";
import { button, press, typeInto } from "../islands/queries.ts";
import { until } from "../support/until.ts";
import { partner } from "./fakes.ts";
import { setStrings } from "../../islands/i18n.ts";
import { INTEREST_TEXTS } from "../../islands/interests/texts.ts";
import { languageList } from "../../islands/interests/languages.ts";
import { ROULETTE_INTEREST_TEXTS } from "../../islands/roulette/interest-texts.ts";
import { CATALOGUES, islandStrings } from "../../src/i18n/catalogue.ts";

afterAll(() => unregisterDom());
const dom = reactRoot();

/** A TagInput holding its own value, as a form does; `seen` gets every change. */
function Tags({ start = [], suggest, seen }: { start?: string[]; suggest?: (p: string) => Promise<string[]>; seen?: string[][] }) {
  const [tags, setTags] = useState<string[]>(start);
  return <TagInput value={tags} suggest={suggest} onChange={(t) => (seen?.push(t), setTags(t))} />;
}

const field = (el: HTMLElement) => el.querySelector<HTMLInputElement>('input[role="combobox"]')!;
const tagsOf = (el: HTMLElement) => [...el.querySelectorAll(".tag > span")].map((s) => s.textContent);
const live = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;

describe("the interest tag input", () => {
  test("is a labelled combobox; Enter and comma add normalised tags, duplicates are dropped, Backspace removes the last", () => {
    const el = dom.mount(<Tags />);
    const input = field(el);
    expect(el.querySelector("label")?.textContent).toBe("Interests");
    expect(el.querySelector("label")?.getAttribute("for")).toBe(input.id);
    expect(input.getAttribute("aria-autocomplete")).toBe("list");
    expect(document.getElementById(input.getAttribute("aria-describedby")!)?.textContent).toContain("Enter or comma");
    act(() => typeInto(input, "  Chess "));
    act(() => void press(input, "Enter"));
    act(() => typeInto(input, "Hiking"));
    act(() => void press(input, ","));
    act(() => typeInto(input, "chess"));
    act(() => void press(input, "Enter"));
    expect(tagsOf(el)).toEqual(["chess", "hiking"]);
    expect(input.value).toBe("");
    expect(live(el)).toBe("hiking added");
    // Enter in an empty field is left to the form.
    expect(press(input, "Enter")).toBe(true);
    act(() => void press(input, "Backspace"));
    expect(tagsOf(el)).toEqual(["chess"]);
    expect(live(el)).toBe("hiking removed");
  });

  test("a pasted list is split at commas; each tag has a remove button named after it", () => {
    const el = dom.mount(<Tags />);
    act(() => typeInto(field(el), "tea, board games,jazz"));
    expect(tagsOf(el)).toEqual(["tea", "board games"]);
    expect(field(el).value).toBe("jazz");
    act(() => button(el, "Remove tea")!.click());
    expect(tagsOf(el)).toEqual(["board games"]);
    expect(document.activeElement).toBe(field(el));
  });

  test("refuses a tag outside the rules and an eleventh one, saying why", () => {
    const el = dom.mount(<Tags start={Array.from({ length: 10 }, (_, i) => `tag ${i}`)} />);
    act(() => typeInto(field(el), "c++"));
    act(() => void press(field(el), "Enter"));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe("An interest is 2 to 24 letters, digits, spaces or hyphens");
    expect(field(el).getAttribute("aria-invalid")).toBe("true");
    act(() => typeInto(field(el), "cooking"));
    act(() => void press(field(el), "Enter"));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe("You can add at most 10 interests");
    expect(tagsOf(el)).toHaveLength(10);
  });

  test("suggestions come after a pause, form a listbox, and Down then Enter picks one", async () => {
    const asked: string[] = [];
    const el = dom.mount(<Tags start={["sudoku"]} suggest={async (p) => (asked.push(p), ["sudoku", "surfing", "sushi"])} />);
    const input = field(el);
    act(() => typeInto(input, "Su"));
    expect(asked).toEqual([]);
    await act(async () => until(() => asked.length === 1, "the suggestions asked for", SUGGEST_DELAY_MS * 20));
    await act(async () => {});
    const list = document.getElementById(input.getAttribute("aria-controls")!)!;
    expect(list.getAttribute("role")).toBe("listbox");
    expect(list.hidden).toBe(false);
    expect(input.getAttribute("aria-expanded")).toBe("true");
    // One already chosen is not offered again.
    expect([...list.querySelectorAll('[role="option"]')].map((o) => o.textContent)).toEqual(["surfing", "sushi"]);
    expect(asked).toEqual(["su"]);
    act(() => void press(input, "ArrowDown"));
    act(() => void press(input, "ArrowDown"));
    expect(input.getAttribute("aria-activedescendant")).toBe(list.querySelectorAll('[role="option"]')[1]!.id);
    expect(list.querySelectorAll('[aria-selected="true"]')).toHaveLength(1);
    act(() => void press(input, "Enter"));
    expect(tagsOf(el)).toEqual(["sudoku", "sushi"]);
    expect(input.getAttribute("aria-expanded")).toBe("false");
  });
});

describe("the language picker", () => {
  test("adds with the list and the Add button, shows names, removes by a named button, stops at five", () => {
    const seen: string[][] = [];
    function Picker() {
      const [codes, setCodes] = useState<string[]>(["en", "pt", "de", "fr"]);
      return <LanguagePicker value={codes} onChange={(c) => (seen.push(c), setCodes(c))} />;
    }
    const el = dom.mount(<Picker />);
    expect(el.querySelector("legend")?.textContent).toBe("Languages I speak");
    expect(tagsOf(el)).toEqual(["English", "Portuguese", "German", "French"]);
    const select = el.querySelector("select")!;
    expect([...select.options].some((o) => o.textContent === "Spanish (Español)")).toBe(true);
    expect([...select.options].some((o) => o.value === "en")).toBe(false);
    act(() => {
      select.value = "es";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(seen).toEqual([]);
    act(() => button(el, "Add")!.click());
    expect(seen.at(-1)).toEqual(["en", "pt", "de", "fr", "es"]);
    expect(el.querySelector("select")!.disabled).toBe(true);
    expect(el.querySelector("select")!.options[0]!.textContent).toBe("At most 5 languages");
    act(() => button(el, "Remove German")!.click());
    expect(seen.at(-1)).toEqual(["en", "pt", "fr", "es"]);
  });
});

describe("the roulette's interests and language filter", () => {
  const countries = [{ code: "DE", name: "Germany" }];

  test("a language filter sits beside gender and country, my languages first", () => {
    const changes: Filters[] = [];
    const el = dom.mount(<RouletteFilters filters={{ gender: "any", country: "any", language: "any" }} countries={countries} spoken={["pt"]} onChange={(f) => changes.push(f)} />);
    const selects = [...el.querySelector('[aria-label="Partner filters"]')!.querySelectorAll("select")];
    expect(selects).toHaveLength(3);
    const language = selects[2]!;
    expect([...language.options].slice(0, 2).map((o) => o.value)).toEqual(["any", "pt"]);
    act(() => {
      language.value = "pt";
      language.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(changes).toEqual([{ gender: "any", country: "any", language: "pt" }]);
  });

  test("this session's interests and 'only people who share my interests', off without interests", () => {
    let filters: Filters = { gender: "any", country: "any", language: "any", interests: [] };
    function Harness() {
      const [f, setF] = useState(filters);
      return <RouletteFilters filters={f} countries={countries} onChange={(n) => ((filters = n), setF(n))} suggest={async () => []} />;
    }
    const el = dom.mount(<Harness />);
    const only = el.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect(only.closest("label")?.textContent).toBe("Only people who share my interests");
    expect(only.disabled).toBe(true);
    act(() => typeInto(field(el), "chess"));
    act(() => void press(field(el), "Enter"));
    expect(filters.interests).toEqual(["chess"]);
    expect(only.disabled).toBe(false);
    act(() => only.click());
    expect(filters.interestsOnly).toBe(true);
    // Removing the last interest turns "only" off with it.
    act(() => button(el, "Remove chess")!.click());
    expect(filters).toMatchObject({ interests: [], interestsOnly: false });
  });

  test("while searching: 'Looking for someone who likes chess, hiking...'", () => {
    const searching = (interests: string[]) => statusText({ ...initialRouletteState({ gender: "any", country: "any", interests }), status: "searching" });
    expect(searching(["chess", "hiking"])).toBe("Looking for someone who likes chess, hiking...");
    expect(searching(["chess", "hiking", "tea", "go", "jazz"])).toBe("Looking for someone who likes chess, hiking, tea and 2 more...");
    expect(searching([])).toBe("Looking for someone to chat with...");
  });

  test("once connected, the stage shows what both like and the languages the stranger speaks", () => {
    const el = dom.mount(
      <RouletteStage status="connected" statusText="" partner={partner("pair-1", { sharedInterests: ["chess", "hiking"], languages: ["fr", "en"] })} localStream={null} remoteStream={new MediaStream()} />,
    );
    const label = el.querySelector(".roulette-partner")!.textContent;
    expect(label).toContain("You both like chess, hiking");
    expect(label).toContain("Speaks French, English");
    const none = dom.mount(<RouletteStage status="connected" statusText="" partner={partner("pair-2")} localStream={null} remoteStream={new MediaStream()} />);
    expect(none.querySelector(".roulette-partner")!.textContent).not.toContain("both like");
  });
});

describe("interests in the page's language", () => {
  test("the looking-for line counts the rest in the language's plural form; language names come from Intl", () => {
    setStrings("ru", islandStrings("ru"));
    try {
      expect(ROULETTE_INTEREST_TEXTS.lookingFor(["шахматы", "походы", "чай", "кино", "джаз"])).toBe("Ищем того, кто любит шахматы, походы, чай и ещё 2...");
      expect(ROULETTE_INTEREST_TEXTS.shared(["чай"])).toBe("Вам обоим нравится чай");
      expect(INTEREST_TEXTS.tooMany(10)).toBe("Можно добавить не больше 10 интересов");
      expect(languageList(["de", "pt"])).toBe(`${new Intl.DisplayNames(["ru"], { type: "language" }).of("de")}, ${new Intl.DisplayNames(["ru"], { type: "language" }).of("pt")}`);
    } finally {
      setStrings("en", CATALOGUES.en);
    }
    expect(ROULETTE_INTEREST_TEXTS.lookingFor(["chess", "hiking", "tea", "film", "jazz"])).toBe("Looking for someone who likes chess, hiking, tea and 2 more...");
    expect(languageList(["de", "pt"])).toBe("German, Portuguese");
  });
});
