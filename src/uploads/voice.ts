// Voice messages are Opus audio in WebM (what Chromium's and Firefox's MediaRecorder write) or in
// Ogg (Safari, opusenc): recognised by content, never by name or type. Two small readers, since
// only a few fields matter: that the file is exactly one Opus audio track, and how long it lasts.
//   WebM: the EBML header's DocType "webm"; every TrackEntry an audio track with CodecID A_OPUS;
//     the length from Info/Duration when written, else from the last block's time (a recorder
//     that streams writes no Duration, and unknown sizes for Segment and Cluster).
//   Ogg: one logical stream whose first packet is an OpusHead (version 1) and second OpusTags;
//     the length from the last page's granule position less the pre-skip, at 48 kHz.

export type VoiceContainer = "webm" | "ogg";

export type VoiceCheck =
  | { ok: true; container: VoiceContainer; mime: "audio/webm" | "audio/ogg"; ext: VoiceContainer; durationMs: number | null }
  | { ok: false; reason: string };

const refuse = (reason: string): VoiceCheck => ({ ok: false, reason });

export function checkVoice(bytes: Uint8Array): VoiceCheck {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return checkWebm(bytes);
  if (bytes.length >= 4 && bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53) return checkOgg(bytes);
  return refuse("A voice message must be Opus audio in WebM or Ogg");
}

// ---------------------------------------------------------------- WebM (EBML)

const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackType: 0x83,
  codecId: 0x86,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  blockGroup: 0xa0,
  block: 0xa1,
  simpleBlock: 0xa3,
} as const;

/** Entered rather than skipped: their children are read in the same flat walk. */
const MASTERS = new Set<number>([ID.ebml, ID.segment, ID.info, ID.tracks, ID.trackEntry, ID.cluster, ID.blockGroup]);

/** A variable-length integer at `at`: its value (marker kept for ids) and length; null if malformed. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    if (bytes[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function uint(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + bytes[at + i]!;
  return value;
}

function checkWebm(bytes: Uint8Array): VoiceCheck {
  const bad = refuse("This WebM file is not a single Opus audio track");
  let docType: string | null = null;
  let scale = 1_000_000;
  let declared: number | null = null;
  const tracks: { type: number | null; codec: string | null }[] = [];
  let clusterTime = 0;
  let lastBlock = -1;
  let at = 0;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    if (!id) return bad;
    const size = vint(bytes, at + id.length, false);
    if (!size) return bad;
    const start = at + id.length + size.length;
    // A recorder still writing leaves the last element cut short; what was read still counts.
    const end = size.unknown ? bytes.length : Math.min(start + size.value, bytes.length);
    if (MASTERS.has(id.value)) {
      if (id.value === ID.trackEntry) tracks.push({ type: null, codec: null });
      at = start;
      continue;
    }
    const track = tracks.at(-1);
    switch (id.value) {
      case ID.docType:
        docType = new TextDecoder().decode(bytes.subarray(start, end)).replace(/\0+$/, "");
        break;
      case ID.timecodeScale:
        scale = uint(bytes, start, end - start);
        break;
      case ID.duration: {
        const view = new DataView(bytes.buffer, bytes.byteOffset + start, end - start);
        declared = end - start === 4 ? view.getFloat32(0) : end - start === 8 ? view.getFloat64(0) : null;
        break;
      }
      case ID.trackType:
        if (track) track.type = uint(bytes, start, end - start);
        break;
      case ID.codecId:
        if (track) track.codec = new TextDecoder().decode(bytes.subarray(start, end)).replace(/\0+$/, "");
        break;
      case ID.timecode:
        clusterTime = uint(bytes, start, end - start);
        break;
      case ID.simpleBlock:
      case ID.block: {
        const trackNumber = vint(bytes, start, false);
        if (!trackNumber || start + trackNumber.length + 2 > end) return bad;
        const view = new DataView(bytes.buffer, bytes.byteOffset + start + trackNumber.length, 2);
        lastBlock = Math.max(lastBlock, clusterTime + view.getInt16(0));
        break;
      }
    }
    if (size.unknown) return bad;
    at = start + size.value;
  }
  if (docType !== "webm") return refuse("A voice message must be Opus audio in WebM or Ogg");
  if (tracks.length !== 1 || tracks[0]!.codec !== "A_OPUS" || (tracks[0]!.type !== null && tracks[0]!.type !== 2)) return bad;
  if (lastBlock < 0) return refuse("This recording holds no sound");
  const ms = (ticks: number) => Math.round((ticks * scale) / 1_000_000);
  const durationMs = declared !== null && Number.isFinite(declared) && declared > 0 ? ms(declared) : ms(lastBlock);
  return { ok: true, container: "webm", mime: "audio/webm", ext: "webm", durationMs };
}

// ---------------------------------------------------------------- Ogg

function checkOgg(bytes: Uint8Array): VoiceCheck {
  const bad = refuse("This Ogg file is not a single Opus audio stream");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let serial: number | null = null;
  let preSkip = 0;
  let pages = 0;
  let lastGranule = -1;
  while (at < bytes.length) {
    if (at + 27 > bytes.length || view.getUint32(at) !== 0x4f676753 || bytes[at + 4] !== 0) return bad;
    const flags = bytes[at + 5]!;
    const granule = view.getBigInt64(at + 6, true);
    const pageSerial = view.getUint32(at + 14, true);
    const segments = bytes[at + 26]!;
    if (at + 27 + segments > bytes.length) return bad;
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += bytes[at + 27 + i]!;
    const body = at + 27 + segments;
    if (body + bodyLength > bytes.length) return bad;
    if (pages === 0) {
      // The first page holds the OpusHead alone (RFC 7845 section 3), at the start of the stream.
      if (!(flags & 0x02) || bodyLength < 19 || new TextDecoder().decode(bytes.subarray(body, body + 8)) !== "OpusHead") return bad;
      if (bytes[body + 8]! >> 4 !== 0 || bytes[body + 9] === 0) return bad;
      preSkip = view.getUint16(body + 10, true);
      serial = pageSerial;
    } else if (pageSerial !== serial) {
      return bad;
    } else if (pages === 1 && new TextDecoder().decode(bytes.subarray(body, body + 8)) !== "OpusTags") {
      return bad;
    }
    if (granule >= 0n) lastGranule = Number(granule);
    pages++;
    at = body + bodyLength;
  }
  if (pages < 3) return refuse("This recording holds no sound");
  const durationMs = lastGranule >= 0 ? Math.max(0, Math.round(((lastGranule - preSkip) / 48_000) * 1000)) : null;
  return { ok: true, container: "ogg", mime: "audio/ogg", ext: "ogg", durationMs };
}
