// Fallbacks for the few newer built-ins that this code or its libraries call without a check, so
// the bundles also run on the spec's minimum browsers (Chrome 72, Firefox 59; README "Older
// browsers"). Each is installed only where the browser lacks it; a current browser runs none.
// Syntax is not this file's business: the build lowers it (scripts/client-targets.ts).
//   - globalThis: Chrome 71, Firefox 65 (our media, message-id and upload code reads it);
//   - Object.fromEntries: Chrome 73, Firefox 63 (API error fields, unread counts, the emoji picker);
//   - Array.prototype.flat: Chrome 69, Firefox 62 (the emoji picker);
//   - queueMicrotask: Chrome 71, Firefox 69 (the emoji picker's search box).
// Imported first by every page script (islands/client.ts, enhance/auth.ts, enhance/consent.ts).

/** The parts of a global scope these fallbacks touch. */
export interface FallbackScope {
  globalThis?: unknown;
  queueMicrotask?: (callback: () => void) => void;
  Object: ObjectConstructor;
  Array: ArrayConstructor;
  Promise: PromiseConstructor;
}

/** Installs what `scope` lacks; returns the names installed (for the tests). */
export function installFallbacks(scope: FallbackScope): string[] {
  const installed: string[] = [];
  const define = (target: object, name: string, value: unknown) => {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
    installed.push(name);
  };
  if (typeof scope.globalThis !== "object" || scope.globalThis === null) define(scope, "globalThis", scope);
  if (typeof scope.Object.fromEntries !== "function") {
    define(scope.Object, "fromEntries", (entries: Iterable<readonly [PropertyKey, unknown]>) => {
      const result: Record<PropertyKey, unknown> = {};
      for (const [key, value] of entries) result[key] = value;
      return result;
    });
  }
  if (typeof scope.Array.prototype.flat !== "function") {
    define(scope.Array.prototype, "flat", function flat(this: unknown[], depth = 1): unknown[] {
      const out: unknown[] = [];
      const walk = (items: unknown[], level: number) => {
        for (const item of items) {
          if (Array.isArray(item) && level > 0) walk(item, level - 1);
          else out.push(item);
        }
      };
      walk(this, Math.floor(Number(depth)) || 0);
      return out;
    });
  }
  if (typeof scope.queueMicrotask !== "function") {
    const resolved = scope.Promise.resolve();
    define(scope, "queueMicrotask", (callback: () => void) => {
      resolved.then(callback).catch((error: unknown) => setTimeout(() => { throw error; }));
    });
  }
  return installed;
}

// `self` is the window on a page; `globalThis` may be the very thing that is missing.
if (typeof self !== "undefined") installFallbacks(self as unknown as FallbackScope);
