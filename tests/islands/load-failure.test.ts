// A background load refused because the session ended (a logout racing the page's first loads)
// says one plain line; any other failure stays an error with its stack.
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { ApiError } from "../../islands/lib/api.ts";
import { loadFailed } from "../../islands/lib/load-failure.ts";

const spies: { mockRestore(): void }[] = [];
afterEach(() => spies.splice(0).forEach((s) => s.mockRestore()));

function watchConsole() {
  const info = spyOn(console, "info").mockImplementation(() => {});
  const error = spyOn(console, "error").mockImplementation(() => {});
  spies.push(info, error);
  return { info, error };
}

describe("a failed background load", () => {
  test("after the session ended says one line without a stack", () => {
    const { info, error } = watchConsole();
    loadFailed("Failed to load unread counters", new ApiError("Your session has ended. Please sign in again.", 401, "unauthorized", null));
    expect(info.mock.calls).toEqual([["Failed to load unread counters: the session has ended"]]);
    expect(error).not.toHaveBeenCalled();
  });

  test("while the device is offline says one line without a stack", () => {
    const { info, error } = watchConsole();
    const own = Object.getOwnPropertyDescriptor(navigator, "onLine");
    Object.defineProperty(navigator, "onLine", { value: false, configurable: true });
    try {
      loadFailed("Failed to load unread counters", new TypeError("Failed to fetch"));
    } finally {
      if (own) Object.defineProperty(navigator, "onLine", own);
      else delete (navigator as { onLine?: boolean }).onLine;
    }
    expect(info.mock.calls).toEqual([["Failed to load unread counters: offline"]]);
    expect(error).not.toHaveBeenCalled();
  });

  test("for any other reason is logged as an error with what went wrong", () => {
    const { info, error } = watchConsole();
    const failure = new ApiError("Something went wrong", 500, "internal", null);
    loadFailed("Failed to load messages", failure);
    expect(error.mock.calls).toEqual([["Failed to load messages", failure]]);
    expect(info).not.toHaveBeenCalled();
  });
});
