// Chat pictures under "Blur nudity" (issue 12), with a stand-in classifier: no model and no
// explicit image, the stand-in answers by file name. Pictures are checked once they have loaded.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act } from "react";
import ImageGrid from "../../islands/chat/ImageGrid.tsx";
import Lightbox from "../../islands/chat/Lightbox.tsx";
import type { FrameClassifier } from "../../islands/nudity/classifier.ts";
import { setPictureClassifier } from "../../islands/nudity/picture-checks.ts";
import type { NsfwScores } from "../../islands/nudity/thresholds.ts";
import { me, message } from "./fixtures.ts";
import { chatDom, click, harness, settle, text } from "./harness.ts";

const { render } = chatDom();

const SAFE: NsfwScores = { Drawing: 0.05, Hentai: 0.01, Neutral: 0.9, Porn: 0.02, Sexy: 0.02 };
const EXPLICIT: NsfwScores = { Drawing: 0.01, Hentai: 0.1, Neutral: 0.05, Porn: 0.8, Sexy: 0.04 };

let loads = 0;
let classified: string[] = [];
/** Answers EXPLICIT for a file named "explicit-…", SAFE for anything else. */
const standIn: FrameClassifier = {
  async classify(source) {
    const src = (source as HTMLImageElement).getAttribute("src") ?? "";
    classified.push(src);
    return { scores: src.includes("explicit-") ? EXPLICIT : SAFE, ms: 1 };
  },
};

beforeEach(() => {
  loads = 0;
  classified = [];
  setPictureClassifier(async () => {
    loads++;
    return standIn;
  });
});
afterEach(() => setPictureClassifier(null));

const photo = (id: number, name: string, overrides: Parameters<typeof message>[0] = {}) =>
  message({ id, message_type: "image", file_name: name, file_path: `f/${name}`, file_size: 2048, sender_name: "Bob", ...overrides });
/** The browser has loaded the picture, as when it scrolls into view. */
const loaded = (el: ParentNode, index = 0) =>
  act(async () => {
    el.querySelectorAll("img")[index]?.dispatchEvent(new Event("load"));
  });
const contactBob = (controller: ReturnType<typeof harness>["controller"]) => {
  controller.store.contacts.value = { 2: true };
};

describe("pictures under 'Blur nudity'", () => {
  test("a contact's picture stays covered until it has loaded and the classifier cleared it", async () => {
    const { controller } = harness();
    contactBob(controller);
    const picture = photo(700, "safe-cat.jpg");
    controller.store.messages.value = [picture];
    const el = await render(controller, <ImageGrid images={[picture]} />);
    expect(el.querySelector(".image-grid")?.className).toContain("is-blurred");
    expect(el.querySelector(".blur-cover")?.getAttribute("data-reason")).toBe("checking");
    expect(loads).toBe(0);
    await loaded(el);
    await settle();
    expect(loads).toBe(1);
    expect(el.querySelector(".image-grid")?.className).not.toContain("is-blurred");
    expect(el.querySelector(".blur-cover")).toBeNull();
    await click(el.querySelector(".image-tile"));
    expect(controller.store.lightbox.value?.images).toHaveLength(1);
  });

  test("an explicit picture from a contact keeps its cover with 'Tap to view', in the grid and in the lightbox", async () => {
    const { controller } = harness();
    contactBob(controller);
    const picture = photo(701, "explicit-1.jpg");
    const other = photo(702, "safe-dog.jpg");
    controller.store.messages.value = [picture, other];
    const el = await render(
      controller,
      <>
        <ImageGrid images={[picture]} />
        <ImageGrid images={[other]} />
      </>,
    );
    await loaded(el, 0);
    await loaded(el, 1);
    await settle();
    const cover = el.querySelector(".blur-cover");
    expect(cover?.getAttribute("data-reason")).toBe("explicit");
    expect(text(cover)).toContain("Photo from Bob may show nudity");
    expect(text(cover)).toContain("Tap to view");
    await click(el.querySelectorAll(".image-tile")[0]);
    expect(controller.store.lightbox.value).toBeNull();
    await click(el.querySelectorAll(".image-tile")[1]);
    expect(controller.store.lightbox.value?.images.map((i) => i.message.id)).toEqual([701, 702]);
    expect(controller.store.lightbox.value?.index).toBe(1);
    await act(async () => {
      controller.store.lightbox.value = null;
    });
    await click(cover);
    expect(el.querySelectorAll(".image-grid.is-blurred")).toHaveLength(0);
  });

  test("the lightbox covers a picture until the classifier has cleared it, and checks the pictures behind '+N' when shown", async () => {
    const { controller } = harness();
    contactBob(controller);
    const pictures = [photo(710, "explicit-5.jpg"), photo(711, "safe-hill.jpg")];
    controller.store.messages.value = pictures;
    const el = await render(controller, <Lightbox />);
    await act(async () => {
      controller.store.lightbox.value = { images: pictures.map((m) => ({ url: `/uploads/${m.file_path}`, name: m.file_name ?? "", message: m })), index: 1 };
    });
    const main = () => el.querySelector(".lightbox-image")!;
    expect(main().className).toContain("is-covered");
    expect(el.querySelector(".lightbox-picture .blur-cover")?.getAttribute("data-reason")).toBe("checking");
    expect(el.querySelectorAll(".lightbox-thumb.is-covered")).toHaveLength(2);
    await act(async () => main().dispatchEvent(new Event("load")));
    await settle();
    expect(classified).toEqual(["/uploads/f/safe-hill.jpg"]);
    expect(main().className).not.toContain("is-covered");
    expect(el.querySelector(".lightbox-picture .blur-cover")).toBeNull();
    expect(el.querySelectorAll(".lightbox-thumb.is-covered")).toHaveLength(1);
    await click(el.querySelector('[aria-label="Previous image"]'));
    await act(async () => main().dispatchEvent(new Event("load")));
    await settle();
    const cover = el.querySelector(".lightbox-picture .blur-cover");
    expect(cover?.getAttribute("data-reason")).toBe("explicit");
    await click(cover);
    expect(main().className).not.toContain("is-covered");
    expect(controller.store.revealed.value[710]).toBe(true);
  });

  test("each picture URL is classified once: the verdict is kept for the next render", async () => {
    const { controller } = harness();
    contactBob(controller);
    const picture = photo(703, "explicit-2.jpg");
    const first = await render(controller, <ImageGrid images={[picture]} />);
    await loaded(first);
    await settle();
    const again = await render(controller, <ImageGrid images={[{ ...picture, id: 704 }]} />);
    await loaded(again);
    await settle();
    expect(classified).toEqual(["/uploads/f/explicit-2.jpg"]);
    expect(again.querySelector(".blur-cover")?.getAttribute("data-reason")).toBe("explicit");
  });

  test("with the setting off nothing is classified and a contact's pictures show at once; mine are never checked", async () => {
    const off = harness({}, me({ blur_nudity: false }));
    contactBob(off.controller);
    const el = await render(off.controller, <ImageGrid images={[photo(705, "explicit-3.jpg")]} />);
    await loaded(el);
    await settle();
    expect(el.querySelector(".blur-cover")).toBeNull();
    const on = harness();
    const mine = await render(on.controller, <ImageGrid images={[photo(706, "explicit-4.jpg", { sender_id: 1, receiver_id: 2, sender_name: "Me" })]} />);
    await loaded(mine);
    await settle();
    expect(mine.querySelector(".blur-cover")).toBeNull();
    expect(loads).toBe(0);
    expect(classified).toEqual([]);
  });

  test("a stranger's safe picture still carries the stranger cover", async () => {
    const { controller } = harness();
    const el = await render(controller, <ImageGrid images={[photo(707, "safe-tree.jpg")]} />);
    await loaded(el);
    await settle();
    expect(el.querySelector(".blur-cover")?.getAttribute("data-reason")).toBe("stranger");
    expect(text(el.querySelector(".blur-cover"))).toBe("Photo from BobTap to view");
  });
});
