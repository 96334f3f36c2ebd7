// Every word a component shows comes from the catalogue (src/i18n): a scan of JSX text nodes and
// read-aloud props (aria-label, placeholder, title, alt, label, ...) in the pages and islands
// (tests/i18n/literal-scan.ts). Not scanned, by decision: the legal pages (English is the binding
// text; a translated line says so) and the moderators' console under /mod (a staff tool, English).
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";
import { scanSource } from "./literal-scan.ts";

const root = join(import.meta.dir, "..", "..");
const NOT_SCANNED = [/^src\/pages\/legal\//, /^src\/pages\/mod\//];
/** Words that are the same in every language: the product's name. */
const SAME_IN_EVERY_LANGUAGE = new Set(["Web Chat"]);

const files = ["src/pages/**/*.tsx", "islands/**/*.tsx"].flatMap((pattern) => [...new Glob(pattern).scanSync(root)]).filter((f) => !NOT_SCANNED.some((r) => r.test(f)));

describe("no user-visible literal outside the catalogue", () => {
  test("the scanner finds what it is meant to find", () => {
    const found = scanSource("x.tsx", '<p className="a">Hello there</p><input placeholder="Type here" aria-label={"Close"} />{a > b ? x : y}');
    expect(found.map((f) => f.text)).toEqual(["Type here", "Close", "Hello there"]);
    expect(scanSource("y.tsx", "<p>{t(\"page.skip\")}</p><i title={t(\"x\")} />")).toEqual([]);
  });

  for (const file of files) {
    test(file, () => {
      const found = scanSource(join(root, file)).filter((f) => !SAME_IN_EVERY_LANGUAGE.has(f.text));
      if (found.length > 0) throw new Error(`${file}: texts outside the catalogue:\n${found.map((f) => `  line ${f.line}: ${JSON.stringify(f.text)}`).join("\n")}`);
    });
  }
});
