// A voice message: one upload of kind "voice", Opus in WebM or Ogg by content (voice.ts), at most
// MAX_VOICE_BYTES and MAX_VOICE_MS. The length the client states (duration_ms) is checked, and
// against the container's own when it has one; the container's is what is stored.
import { AppError, validationError } from "../http/errors.ts";
import { assertSize } from "./limits.ts";
import type { PreparedFile } from "./prepare.ts";
import type { SpooledFile } from "./receive.ts";
import { checkVoice } from "./voice.ts";

import { MAX_VOICE_BYTES, MAX_VOICE_MS } from "../realtime/message-rules.ts";

export { MAX_VOICE_BYTES, MAX_VOICE_MS };
/** A recorder stopped at 5:00 writes a few frames more; a container past this is refused. */
const LENGTH_GRACE_MS = 500;

/** How far the stated length may be from the container's: a second, or a tenth of it. */
const agrees = (stated: number, measured: number) => Math.abs(stated - measured) <= Math.max(1500, measured / 10);

const tooLong = () => validationError({ duration_ms: "A voice message can be at most 5 minutes long" }, "A voice message can be at most 5 minutes long");

/** duration_ms as sent: a whole number of milliseconds, 1 to MAX_VOICE_MS. */
export function statedDuration(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,9}$/.test(raw.trim())) {
    throw validationError({ duration_ms: "duration_ms is the recording's length in milliseconds" });
  }
  const ms = Number(raw.trim());
  if (ms < 1) throw validationError({ duration_ms: "The recording is empty" });
  if (ms > MAX_VOICE_MS) throw tooLong();
  return ms;
}

export async function prepareVoiceFile(file: SpooledFile, stated: number): Promise<PreparedFile & { durationMs: number }> {
  assertSize(file, MAX_VOICE_BYTES, "file");
  const checked = checkVoice(await Bun.file(file.path).bytes());
  if (!checked.ok) throw new AppError(415, "unsupported_type", `"${file.name}": ${checked.reason}`);
  const measured = checked.durationMs;
  if (measured !== null && measured > MAX_VOICE_MS + LENGTH_GRACE_MS) throw tooLong();
  if (measured !== null && !agrees(stated, measured)) {
    throw validationError({ duration_ms: `duration_ms (${stated}) does not match the recording (${measured} ms)` });
  }
  return {
    path: file.path,
    size: file.size,
    ext: checked.ext,
    mime: checked.mime,
    messageType: "voice",
    name: file.name,
    durationMs: Math.min(measured ?? stated, MAX_VOICE_MS),
  };
}
