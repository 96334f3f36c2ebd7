// The console in unit tests: a test that expects a warning or an error wraps the one call that
// logs it in `expectLogged`, which keeps the line out of the output and asserts it was written;
// `failOnUnexpectedConsole()` makes every other console.warn/console.error in the file a failure,
// so an error nobody expected cannot hide behind a muted console.
import { afterAll, afterEach, beforeAll, expect, spyOn } from "bun:test";

type Kind = "warn" | "error";

/** Lines logged outside expectLogged since the last check (only while failOnUnexpectedConsole is on). */
const unexpected: string[] = [];
/** Where expectLogged is collecting, if it is. */
let capturing: string[] | null = null;
let installed = 0;

const format = (args: unknown[]) => args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" ");

function install(): () => void {
  const spies = (["warn", "error"] as const).map((kind) =>
    spyOn(console, kind).mockImplementation((...args: unknown[]) => {
      const line = `${kind}: ${format(args)}`;
      (capturing ?? unexpected).push(line);
    }),
  );
  installed++;
  return () => {
    installed--;
    for (const spy of spies) spy.mockRestore();
  };
}

/** Every console.warn/console.error in this file outside expectLogged fails the test it ran in. */
export function failOnUnexpectedConsole(): void {
  let restore = () => {};
  beforeAll(() => {
    restore = install();
  });
  afterEach(() => {
    const lines = unexpected.splice(0);
    expect(lines).toEqual([]);
  });
  afterAll(() => restore());
}

/**
 * Runs `run` with the console captured and asserts that it logged a `kind` line containing
 * (or matching) `expected`; returns what `run` returned. Other lines it logs fail the test too.
 */
export async function expectLogged<T>(kind: Kind, expected: string | RegExp, run: () => T | Promise<T>): Promise<T> {
  const restore = installed ? () => {} : install();
  const lines: string[] = [];
  capturing = lines;
  try {
    return await run();
  } finally {
    capturing = null;
    restore();
    const wanted = lines.filter((line) => line.startsWith(`${kind}: `) && (typeof expected === "string" ? line.includes(expected) : expected.test(line)));
    expect(wanted.length, `expected a console.${kind} line like ${String(expected)}, got ${JSON.stringify(lines)}`).toBeGreaterThan(0);
    expect(lines.filter((line) => !wanted.includes(line))).toEqual([]);
  }
}
