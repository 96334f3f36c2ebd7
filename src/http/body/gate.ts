// The one place request bodies are read (issue 18). Elysia's own parsers run before any hook that
// checks who is asking and read whatever arrives, up to the server-wide cap (101 MB, for
// uploads): three unauthenticated 101 MB bodies took the server from 206 MB to 687 MB. This
// parse hook runs for every route instead, in this order:
//   1. a route behind the bearer guard checks the token: 401 before a byte of the body is read;
//   2. the declared Content-Length past the route's limit (rules.ts) is 413 (a JSON body first
//      shows its first chunk, at most the limit, so that one nested too deeply gets its 400);
//   3. JSON and form routes are read here, counting, up to their limit (413 past it), and JSON
//      nested too deeply is a 400 as soon as its bytes show it, before it is parsed (json-text.ts);
//   4. upload routes stream their own bodies, counting; routes that take none read nothing.
// Bun reads no more of a body than is asked for, so a refused body costs no memory.
import { AppError } from "../errors.ts";
import { parseQuery } from "elysia/parse-query";
import { authenticate, isGuarded } from "../../auth/guard.ts";
import type { AppContext } from "../../context.ts";
import { parseCountedJson, readJsonText } from "./json-text.ts";
import { readCappedText, refuseDeclaredOver } from "./read.ts";
import { BODY_RULES, BODYLESS_METHODS, type BodyRule } from "./rules.ts";

/** What a route told Elysia about itself: enough to find its rule and its guard. */
export interface RouteInfo {
  method: string;
  path: string;
  hooks?: unknown;
}

interface GateEntry {
  rule: BodyRule;
  bearer: boolean;
}

/** Read by the routes whose body the gate leaves alone (stream, own, none): they never look at it. */
export const UNREAD = null;

const isJson = (type: string) => /^application\/json\s*(;|$)/i.test(type);
const isUrlEncoded = (type: string) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type);

const unsupported = (what: string) => new AppError(415, "unsupported_type", what);

export class BodyGate {
  private readonly entries = new Map<string, GateEntry>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Takes the app's routes once they are all registered: every route that can carry a body needs
   * a rule, or the app does not start (a route with no rule would otherwise read anything).
   */
  seal(routes: readonly RouteInfo[]): void {
    const missing: string[] = [];
    for (const route of routes) {
      if (BODYLESS_METHODS.has(route.method)) continue;
      const key = `${route.method} ${route.path}`;
      const rule = BODY_RULES[key];
      if (!rule) missing.push(key);
      else this.entries.set(key, { rule, bearer: isGuarded(route.hooks) });
    }
    if (missing.length > 0) throw new Error(`No body rule for ${missing.join(", ")}: add one to src/http/body/rules.ts`);
  }

  /** The parse hook: the body for Elysia's `body`, or UNREAD. Never undefined, so Elysia parses nothing itself. */
  async parse(request: Request, route: string): Promise<unknown> {
    // Elysia runs parse hooks for WebSocket routes (method WS) on their GET upgrade: nothing to read.
    if (BODYLESS_METHODS.has(request.method)) return UNREAD;
    const entry = this.entries.get(`${request.method} ${route}`);
    // Only before seal() (an app still being built) or for a method the router maps oddly.
    if (!entry) throw new AppError(413, "too_large", "This address takes no request body");
    if (entry.bearer) await authenticate(this.ctx, request);
    const { rule } = entry;
    switch (rule.kind) {
      case "own":
        return UNREAD;
      case "none":
      case "stream":
        refuseDeclaredOver(request, rule.max);
        return UNREAD;
      case "json":
        return readJson(request, rule.max, rule.optional ?? false);
      case "form":
        return readFormPost(request, rule.max);
    }
  }
}

async function readJson(request: Request, max: number, optional: boolean): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type === null || !isJson(type)) {
    if (type === null && (await isEmpty(request, max))) return optional ? {} : UNREAD;
    throw unsupported("Send this as JSON (Content-Type: application/json); forms and other types are not accepted here.");
  }
  const text = await readJsonText(request, max);
  if (optional && text.trim() === "") return {};
  return parseCountedJson(text);
}

/** A body with no type is fine when there is none: a fetch() with no body may still send a stream. */
async function isEmpty(request: Request, max: number): Promise<boolean> {
  return request.body === null || (await readCappedText(request, max)) === "";
}

/** The auth forms' no-JavaScript posts: urlencoded as a browser sends them, or JSON as a script may. */
async function readFormPost(request: Request, max: number): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type === null && (await isEmpty(request, max))) return UNREAD;
  if (type !== null && isUrlEncoded(type)) return parseQuery(await readCappedText(request, max));
  if (type !== null && isJson(type)) return parseCountedJson(await readJsonText(request, max));
  throw unsupported("Send the form as a web page would (application/x-www-form-urlencoded), or as JSON.");
}

/** For the error handler: what the gate threw, out of the ParseError Elysia wraps it in. */
export function gateError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof Error && error.cause instanceof AppError) return error.cause;
  return undefined;
}

