// The rules for usernames and display names (issue 18, src/users/names/): reserved words,
// NFKC, UTS #39 skeletons, hidden characters, stacked marks and names that show nothing.
import { describe, expect, test } from "bun:test";
import {
  displayNameProblem,
  MAX_MARKS_IN_A_ROW,
  nameMessages,
  normaliseName,
  normaliseUsername,
  plainFold,
  usernameProblem,
} from "../../src/users/names/rules.ts";
import { confusableFold, skeleton, usernameSkeleton } from "../../src/users/names/skeleton.ts";

const usernameCheck = (raw: string) => usernameProblem(normaliseUsername(raw), confusableFold);
const nameCheck = (raw: string) => displayNameProblem(normaliseName(raw), confusableFold);

describe("usernames", () => {
  test.each(["Stranger", "Moderator", "admin", "System", "Support_Team", "admin_1", "ROOT", "mod", "Staff_Anna", "official_page", "WebChat", "administrator", "Guest_k3x9q2"])(
    "refuses the reserved username %s",
    (username) => {
      expect(usernameCheck(username)).toStartWith("Usernames cannot contain");
    },
  );

  test.each(["Adm1n", "4dmin", "m0d", "ModTeam", "the_mods", "theadminteam", "s_u_p_p_o_r_t", "SYS7EM", "ｓｔａｆｆ"])(
    "refuses the reserved word in disguise: %s",
    (username) => {
      expect(usernameCheck(username)).toStartWith("Usernames cannot contain");
    },
  );

  test("names the reserved word it found, in a sentence a person can read", () => {
    expect(usernameCheck("Support_Team")).toBe("Usernames cannot contain “support”. Please choose another one");
  });

  test.each(["dana_29", "modern_art", "rooted", "Jose_99", "user_123_1", "guesthouse", "Iris_x", "mia_k"])("accepts the ordinary username %s", (username) => {
    expect(usernameCheck(username)).toBeNull();
  });

  test("turns full-width and styled letters into the letters they stand for (NFKC)", () => {
    expect(normaliseUsername("ｄａｎａ＿２９")).toBe("dana_29");
    expect(normaliseUsername("𝐝𝐚𝐧𝐚_29")).toBe("dana_29");
    expect(usernameCheck("ｄａｎａ＿２９")).toBeNull();
  });

  test("still refuses what is not letters, digits or underscores after NFKC", () => {
    expect(usernameCheck("Дмитрий")).toBe(nameMessages.username);
    expect(usernameCheck("ab")).toBe(nameMessages.username);
    expect(usernameCheck("ab-cd")).toBe(nameMessages.username);
  });
});

describe("confusable skeletons (UTS #39)", () => {
  test("Iris_x and lris_x share a skeleton, and so do O0_x and OO_x", () => {
    expect(usernameSkeleton("Iris_x")).toBe(usernameSkeleton("lris_x"));
    expect(usernameSkeleton("O0_x")).toBe(usernameSkeleton("OO_x"));
  });

  test("case variants share one, and lower-casing cannot open a gap (M is m is rn)", () => {
    expect(usernameSkeleton("IRIS_X")).toBe(usernameSkeleton("lrls_x"));
    expect(usernameSkeleton("Mia_x")).toBe(usernameSkeleton("rnia_x"));
    expect(usernameSkeleton("OO_X")).toBe(usernameSkeleton("oo_x"));
  });

  test("different names keep different skeletons", () => {
    expect(usernameSkeleton("dana_29")).not.toBe(usernameSkeleton("dana_28"));
    expect(usernameSkeleton("iris_x")).not.toBe(usernameSkeleton("lris_x"));
  });

  test("maps letters of other scripts that look Latin onto Latin", () => {
    expect(skeleton("\u0410\u0412\u0421")).toBe("ABC"); // Cyrillic А, В, С
    expect(skeleton("\u0391")).toBe("A"); // Greek Alpha
  });
});

describe("display names", () => {
  test.each(["Stranger", "Moderator (Staff)", "The Admin", "mod", "TheModerator", "S t r a n g e r", "Strаnger" /* Cyrillic а */, "Official Support", "WEBCHAT team", "r00t"])(
    "refuses the reserved word in %s",
    (name) => {
      expect(nameCheck(name)).toStartWith("Names cannot use the word");
    },
  );

  test("says which word, readably", () => {
    expect(nameCheck("Moderator (Staff)")).toBe("Names cannot use the word “moderator”. Please choose another one");
  });

  test.each([
    ["a right-to-left override", "Ann\u202Eeil"],
    ["a left-to-right embedding", "\u202AAnn"],
    ["a first-strong isolate", "Ann\u2068Lee"],
    ["a right-to-left mark", "Ann\u200F"],
    ["zero-width spaces only", "\u200B\u200B\u200B"],
    ["a zero-width space between letters", "An\u200Bn"],
    ["a zero-width joiner between letters", "x\u200Dy"],
    ["a word joiner", "Ann\u2060"],
    ["a byte order mark inside a name", "An\uFEFFn"],
    ["NUL", "\u0000"],
    ["NUL inside a name", "Ann\u0000Lee"],
    ["a line break", "Ann\nLee"],
    ["a line separator", "Ann\u2028Lee"],
    ["a Hangul filler, which looks like nothing", "\u3164"],
    ["a blank Braille cell", "\u2800"],
    ["a tag character", "Ann\u{E0041}"],
    ["a private-use character", "Ann\uE000"],
    ["a lone surrogate", "Ann\uD800"],
  ])("refuses %s", (_what, name) => {
    expect(nameCheck(name)).toBe(nameMessages.nameHidden);
  });

  test("refuses 45 combining marks on one letter, and any run past the bound", () => {
    expect(nameCheck("a" + "\u0301".repeat(45))).toBe(nameMessages.nameMarks);
    // U+0353 combines with nothing, so NFKC cannot fold any of them into the letter.
    expect(nameCheck("Ann" + "\u0353".repeat(MAX_MARKS_IN_A_ROW + 1))).toBe(nameMessages.nameMarks);
    expect(nameCheck("An" + "\u0331\u0300\u0301" + "n")).toBeNull();
  });

  test("refuses a name that shows no letter, digit, symbol or emoji", () => {
    expect(nameCheck("...")).toBe(nameMessages.nameInvisible);
    expect(nameCheck("\u0301")).toBe(nameMessages.nameInvisible);
    expect(nameCheck("   ")).toBe(nameMessages.nameLength);
  });

  test.each([
    ["Spanish", "José"],
    ["Russian", "Дмитрий"],
    ["Chinese", "李小龙"],
    ["Arabic", "محمد"],
    ["Arabic with vowel marks and a shadda", "مُحَمَّد"],
    ["Persian with its zero-width non-joiner", "علی‌رضا"],
    ["Hindi", "प्रिया"],
    ["Hebrew with points", "שָּׁלוֹם"],
    ["Vietnamese", "Nguyễn Văn An"],
    ["Japanese", "さくら"],
    ["Korean", "김민준"],
    ["Greek", "Ελένη"],
    ["an emoji", "🦊"],
    ["an emoji with a name", "Anna 🌸"],
    ["an emoji with its presentation selector", "❤️"],
    ["a joined emoji", "👩‍💻 Dev"],
    ["a family emoji of several joins", "👨‍👩‍👧‍👦"],
    ["a flag", "🇩🇪 Hans"],
    ["a keycap", "1️⃣"],
    ["a skin tone", "👋🏽 Sam"],
    ["an ordinary word that contains a reserved one", "Badminton Queen"],
    ["a word that starts like one", "Modern Mo"],
  ])("accepts a legitimate name in %s", (_what, name) => {
    expect(nameCheck(name)).toBeNull();
  });

  test("keeps the name's length within 50 characters after NFKC", () => {
    expect(nameCheck("a".repeat(50))).toBeNull();
    expect(nameCheck("\uFDFA".repeat(3))).toBe(nameMessages.nameLength); // each becomes 18 letters
  });

  test("normalises: NFKC, one plain space for any run of spaces, nothing at the ends", () => {
    expect(normaliseName("  Ann\u00A0\u3000 Lee  ")).toBe("Ann Lee");
    expect(normaliseName("ℌ𝔢𝔩𝔩𝔬")).toBe("Hello");
  });
});

describe("the browser's lighter fold", () => {
  test("uses no lookbehind, so the landing page's script parses in every browser it supports", async () => {
    for (const file of ["rules.ts", "reserved.ts"]) {
      expect(await Bun.file(new URL(`../../src/users/names/${file}`, import.meta.url)).text()).not.toContain("(?<");
    }
  });

  test("refuses the same plain words with the same messages as the server", () => {
    for (const username of ["Stranger", "Moderator", "admin", "System", "Support_Team", "Adm1n"]) {
      expect(usernameProblem(normaliseUsername(username), plainFold)).toBe(usernameCheck(username));
    }
    for (const name of ["Stranger", "Moderator (Staff)", "Ann\u202Eeil", "\u200B", "\u0000", "a" + "\u0301".repeat(45), "José", "🦊"]) {
      expect(displayNameProblem(normaliseName(name), plainFold)).toBe(nameCheck(name));
    }
  });
});
