// The fallbacks for built-ins the minimum browsers (Chrome 72, Firefox 59) lack, and the classic-
// build loader's choice, each on a scope that lacks what an old browser lacks.
import { describe, expect, test } from "bun:test";
import { installFallbacks, type FallbackScope } from "../../islands/legacy/fallbacks.ts";
import { missingScripts } from "../../islands/legacy/boot.ts";
import { hasRun, markRan } from "../../islands/legacy/ran.ts";
import { banEnd } from "../../islands/moderation/texts.ts";

/** A scope like Firefox 59's: no globalThis, no queueMicrotask, no Object.fromEntries, no Array#flat. */
function oldScope(): FallbackScope & Record<string, unknown> {
  const OldObject = Object.create(Object) as ObjectConstructor & { fromEntries?: unknown };
  Object.defineProperty(OldObject, "fromEntries", { value: undefined, writable: true, configurable: true });
  class OldArray extends Array {}
  Object.defineProperty(OldArray.prototype, "flat", { value: undefined, writable: true, configurable: true });
  return { Object: OldObject, Array: OldArray as unknown as ArrayConstructor, Promise };
}

describe("fallbacks for the minimum browsers", () => {
  test("a current browser's scope gets none", () => {
    expect(installFallbacks({ globalThis, queueMicrotask, Object, Array, Promise })).toEqual([]);
  });

  test("an old browser's scope gets globalThis, Object.fromEntries, Array#flat and queueMicrotask, each working", async () => {
    const scope = oldScope();
    expect(installFallbacks(scope).sort()).toEqual(["flat", "fromEntries", "globalThis", "queueMicrotask"]);
    expect(scope.globalThis).toBe(scope);
    expect(scope.Object.fromEntries([["a", 1], ["b", "x"]])).toEqual({ a: 1, b: "x" });
    expect(scope.Object.fromEntries(new Map([["k", true]]))).toEqual({ k: true });
    const flat = (scope.Array.prototype as { flat: (this: unknown[], depth?: number) => unknown[] }).flat;
    expect(flat.call([1, [2, [3, [4]]]])).toEqual([1, 2, [3, [4]]]);
    expect(flat.call([1, [2, [3, [4]]]], 2)).toEqual([1, 2, 3, [4]]);
    const order: string[] = [];
    const ran = new Promise<void>((resolve) => scope.queueMicrotask?.(() => { order.push("microtask"); resolve(); }));
    order.push("sync");
    await ran;
    expect(order).toEqual(["sync", "microtask"]);
    // Installed once: a second pass finds nothing missing.
    expect(installFallbacks(scope)).toEqual([]);
  });
});

describe("the classic-build loader", () => {
  test("loads the classic file of each page script whose module build did not run, in the page's order", () => {
    const scope = {};
    markRan("consent", scope);
    const list = [["client", "/build/client-legacy-A.js"], ["consent", "/build/consent-legacy-B.js"], ["auth", "/build/auth-legacy-C.js"]];
    expect(missingScripts(list, (name) => hasRun(name, scope))).toEqual(["/build/client-legacy-A.js", "/build/auth-legacy-C.js"]);
  });

  test("loads nothing where every module script ran, and nothing for a list it cannot read", () => {
    const scope = {};
    for (const name of ["client", "auth"]) markRan(name, scope);
    expect(missingScripts([["client", "/x.js"], ["auth", "/y.js"]], (name) => hasRun(name, scope))).toEqual([]);
    expect(missingScripts({ client: "/x.js" }, () => false)).toEqual([]);
    expect(missingScripts([["client"], [1, "/y.js"], "z"], () => false)).toEqual([]);
  });
});

describe("the ban end date on a browser without dateStyle (Chrome before 76, Firefox before 79)", () => {
  test("names day, month, year and time one by one instead of printing only the numeric date", () => {
    const made: Intl.DateTimeFormatOptions[] = [];
    const Real = Intl.DateTimeFormat;
    const until = "2026-11-30T14:05:00Z";
    expect(banEnd(until, { timeZone: "UTC" })).toBe("until 30 November 2026 at 14:05 UTC");
    // An old engine ignores the options it does not know.
    class Old extends Real {
      constructor(locale?: string | string[], options: Intl.DateTimeFormatOptions = {}) {
        const { dateStyle: _d, timeStyle: _t, ...rest } = options;
        super(locale, rest);
        made.push(options);
      }
    }
    Intl.DateTimeFormat = Old as typeof Intl.DateTimeFormat;
    try {
      // Without the fallback this engine prints "until 30/11/2026 UTC".
      expect(banEnd(until, { timeZone: "UTC" })).toMatch(/^until 30 November 2026(,| at) 14:05 UTC$/);
      expect(made.at(-1)).toMatchObject({ month: "long", hour: "2-digit" });
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
