// JSON nested too deeply is refused (400) before it is parsed. JSON.parse itself copes with
// 50,000 levels, but whatever walks the value afterwards (TypeBox's Clone and Clean in
// validate(), a logger) recurses once per level and overflows the stack, which answered 500.
// The nesting is counted on the bytes as they arrive, in one linear pass, so a deep body is
// refused from its first bytes, whatever its length, and no deep value is ever built.
import { AppError, validationError } from "../errors.ts";
import { readCappedText } from "./read.ts";

/** The deepest body of the contract is 3 levels (a profile inside a registration); frames, 4. */
export const MAX_JSON_DEPTH = 32;

export const tooDeep = () =>
  validationError({}, `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays)`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Counts bracket nesting outside strings across chunks. It reads UTF-8 bytes or UTF-16 code
 * units alike: the characters it looks for are ASCII, and no byte of a multi-byte UTF-8
 * character is below 0x80.
 */
export class JsonNesting {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly max = MAX_JSON_DEPTH) {}

  /** Throws the 400 once the nesting passes the maximum. */
  feed(units: Uint8Array | string): void {
    const text = typeof units === "string";
    for (let i = 0; i < units.length; i++) {
      const c = text ? units.charCodeAt(i) : (units[i] as number);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > this.max) throw tooDeep();
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.depth--;
    }
  }
}

/** The value of text whose nesting was counted already, or the contract's 400 when it is malformed. */
export function parseCountedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validationError({}, "The request body is not valid JSON");
  }
}

/** A body's JSON text, capped at `max` and counted for nesting as it arrives: a deep body is a 400 from its first bytes, whatever its length. */
export function readJsonText(request: Request, max: number, tooBig?: () => AppError): Promise<string> {
  const nesting = new JsonNesting();
  return readCappedText(request, max, { tooBig, inspect: (chunk) => nesting.feed(chunk) });
}
