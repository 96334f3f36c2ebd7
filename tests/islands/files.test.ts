import { describe, expect, test } from "bun:test";
import { avatarProblem, batches, groupMessages, gridLayout, gridTiles, isImageName, lightboxImages } from "../../islands/lib/files.ts";
import { message } from "./fixtures.ts";

describe("file messages", () => {
  test("detects images by extension, case-insensitively", () => {
    for (const name of ["a.jpg", "b.JPEG", "c.png", "d.gif", "e.webp", "f.bmp", "g.svg"]) expect(isImageName(name)).toBe(true);
    for (const name of ["a.pdf", "png", "a.png.txt", "", null]) expect(isImageName(name)).toBe(false);
  });

  test("merges messages of one group into one file_group at the first one's place", () => {
    const a = message({ id: 1, content: "hi" });
    const f1 = message({ id: 2, message_type: "image", file_name: "1.jpg", group_id: "g1" });
    const b = message({ id: 3, content: "between" });
    const f2 = message({ id: 4, message_type: "file", file_name: "2.pdf", group_id: "g1" });
    const single = message({ id: 5, message_type: "image", file_name: "3.png" });
    const out = groupMessages([a, f1, b, f2, single]);
    expect(out.map((d) => d.kind)).toEqual(["single", "file_group", "single", "single"]);
    const group = out[1];
    expect(group?.kind === "file_group" ? group.files.map((f) => f.id) : []).toEqual([2, 4]);
    expect(out.map((d) => d.key)).toEqual(["m-1", "g-g1", "m-3", "m-5"]);
  });

  test("chooses layouts for 1, 2, 3 and 4 images and a many-image layout otherwise", () => {
    expect([1, 2, 3, 4, 5, 9, 12].map(gridLayout)).toEqual(["one", "two", "three", "four", "many", "many", "many"]);
  });

  test("shows at most nine tiles and puts +N on the ninth when there are more", () => {
    const nine = gridTiles(Array.from({ length: 9 }, (_, i) => i));
    expect(nine).toHaveLength(9);
    expect(nine.every((t) => t.more === 0)).toBe(true);
    const twelve = gridTiles(Array.from({ length: 12 }, (_, i) => i));
    expect(twelve).toHaveLength(9);
    expect(twelve[8]?.more).toBe(3);
    expect(twelve.slice(0, 8).every((t) => t.more === 0)).toBe(true);
  });

  test("the lightbox lists every image of the conversation, served from /uploads/", () => {
    const images = lightboxImages([
      message({ id: 1, message_type: "image", file_name: "a.png", file_path: "x/a.png" }),
      message({ id: 2, content: "text" }),
      message({ id: 3, message_type: "file", file_name: "doc.pdf", file_path: "x/doc.pdf" }),
    ]);
    expect(images.map((i) => i.url)).toEqual(["/uploads/x/a.png"]);
  });

  test("multi-uploads go ten files at a time", () => {
    expect(batches(Array.from({ length: 23 }, (_, i) => i)).map((b) => b.length)).toEqual([10, 10, 3]);
  });
});

describe("avatar checks", () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  test("accepts a small jpeg, png, gif or webp", () => {
    expect(avatarProblem(file("me.jpg", "image/jpeg"))).toBeNull();
    expect(avatarProblem(file("me.webp", "image/webp", 5_242_880))).toBeNull();
  });

  test("refuses another type with the allowed list", () => {
    const problem = avatarProblem(file("me.bmp", "image/bmp")) ?? "";
    expect(problem.startsWith("Invalid file type!")).toBe(true);
    expect(problem).toContain("image/jpeg, image/jpg, image/png, image/gif, image/webp");
  });

  test("refuses a wrong extension", () => {
    expect(avatarProblem(file("me.txt", "image/png"))?.startsWith("Invalid file extension!")).toBe(true);
  });

  test("refuses more than 5 MB, naming the size in MB and the maximum", () => {
    const problem = avatarProblem(file("me.png", "image/png", 6 * 1024 * 1024)) ?? "";
    expect(problem).toContain("File too large!");
    expect(problem).toContain("6.00 MB");
    expect(problem).toContain("Maximum allowed: 5 MB");
  });

  test("refuses names with .., / or a backslash", () => {
    for (const name of ["..me.png", "a\\b.png", "a/b.png"]) expect(avatarProblem(file(name, "image/png"))).toBe("Invalid filename!");
  });
});
