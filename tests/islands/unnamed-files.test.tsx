// Fallback words in the page's language (issue 24), in happy-dom: a picture or file without a name
// is called by the catalogue's word, and so are a removed message and a camera error without one.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import MessageBubble from "../../islands/chat/MessageBubble.tsx";
import { lightboxImages } from "../../islands/lib/files.ts";
import type { Message } from "../../islands/lib/types.ts";
import { callMediaErrorText } from "../../islands/media/errors.ts";
import { translator } from "../../src/i18n/catalogue.ts";
import { message } from "./fixtures.ts";
import { inLanguage } from "./in-language.ts";
import { chatDom, harness, text } from "./harness.ts";

const { render } = chatDom();


describe("a picture or file without a name", () => {
  const picture = (overrides: Partial<Message>) => message({ message_type: "image", file_name: null, file_path: `files/${"c".repeat(32)}.png`, file_size: 2048, group_id: "g1", ...overrides });
  const file = (overrides: Partial<Message>) => message({ message_type: "file", file_name: null, file_path: `files/${"d".repeat(32)}.pdf`, file_size: 4096, group_id: "g1", ...overrides });

  async function bubble(files: Message[]) {
    const { controller } = harness();
    return render(controller, <MessageBubble item={{ kind: "file_group", key: "g", message: files[0]!, files }} own={false} />);
  }

  for (const locale of ["es", "ar"] as const) {
    test(`is called by the catalogue's word in ${locale}, in the chat, the lightbox and the tile's label`, () =>
      inLanguage(locale, async () => {
        const say = translator(locale);
        const el = await bubble([picture({ id: 90 }), file({ id: 91 })]);
        expect(el.querySelector(".image-tile img")?.getAttribute("alt")).toBe(say("chat.unnamed_image"));
        expect(el.querySelector(".image-tile")?.getAttribute("aria-label")).toBe(say("chat.open_image", { name: "" }));
        expect(text(el.querySelector(".file-card .file-name"))).toBe(say("chat.unnamed_file"));
        expect(lightboxImages([picture({ id: 92 })]).map((image) => image.name)).toEqual([say("chat.unnamed_image")]);
      }));
  }

  test("keeps the English words 'image' and 'file'", async () => {
    const el = await bubble([picture({ id: 93 }), file({ id: 94 })]);
    expect(el.querySelector(".image-tile img")?.getAttribute("alt")).toBe("image");
    expect(el.querySelector(".image-tile")?.getAttribute("aria-label")).toBe("Open image ");
    expect(text(el.querySelector(".file-card .file-name"))).toBe("file");
  });

  test("a removed message and a nameless camera error speak the page's language too", () =>
    inLanguage("es", async () => {
      const { controller } = harness();
      const el = await render(controller, <MessageBubble item={{ kind: "single", key: "r", message: message({ id: 95, is_removed: true, content: "" }) }} own={false} />);
      expect(text(el.querySelector(".message-text.is-removed"))).toBe("Eliminado por un moderador");
      expect(callMediaErrorText({ name: "" })).toBe("Error al acceder a los dispositivos: error desconocido");
    }));
});
