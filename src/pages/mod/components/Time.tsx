import { dateText, durationText } from "../format.ts";

/** A time in UTC, machine-readable too. */
export function Time({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{dateText(at)}</time>;
}

/** "3 h ago", with the exact time on hover. */
export function Ago({ at, now }: { at: number; now: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} title={dateText(at)}>
      {durationText(now - at)} ago
    </time>
  );
}
