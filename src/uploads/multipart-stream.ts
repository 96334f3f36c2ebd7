// A streaming multipart/form-data reader: parts are handed to the caller chunk by chunk as the
// body arrives, so a 100 MB upload never sits whole in memory. Only what the routes need:
// Content-Disposition's name and filename; anything malformed is a MultipartError.

export class MultipartError extends Error {}

export interface PartInfo {
  name: string;
  /** null for a text field; a string (possibly empty) for a file part. */
  filename: string | null;
}

export interface PartSink {
  write(chunk: Uint8Array): Promise<void>;
  end(): Promise<void>;
}

/** A part's headers are a few hundred bytes; more is not a browser. */
const MAX_HEADER_BYTES = 8 * 1024;
const CRLF2 = Buffer.from("\r\n\r\n");

export function boundaryOf(contentType: string): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function parseHeaders(text: string): PartInfo {
  const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(text)?.[1];
  if (disposition === undefined) throw new MultipartError("A part has no form-data disposition");
  const param = (key: string) => new RegExp(`(?:^|;)\\s*${key}="([^"]*)"`, "i").exec(disposition)?.[1] ?? null;
  const name = param("name");
  if (name === null) throw new MultipartError("A part has no name");
  return { name, filename: param("filename") };
}

type State = "preamble" | "headers" | "body" | "after" | "done";

/**
 * Reads the whole body, calling `onPart` for each part and writing its bytes to the sink it
 * returns. The sink's promises are awaited, so a slow disk slows the reading (backpressure).
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (part: PartInfo) => Promise<PartSink>,
): Promise<void> {
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // Changed inside step(): typed wide so the loop's checks are not narrowed away.
  let state = "preamble" as State;
  let pending: Buffer = Buffer.alloc(0);
  let sink: PartSink | null = null;

  const step = async (): Promise<boolean> => {
    switch (state) {
      case "preamble": {
        const at = pending.indexOf(first);
        if (at < 0) {
          pending = pending.subarray(Math.max(0, pending.length - first.length));
          return false;
        }
        pending = pending.subarray(at + first.length);
        state = "after";
        return true;
      }
      case "after": {
        if (pending.length < 2) return false;
        const next = pending.toString("latin1", 0, 2);
        if (next === "--") state = "done";
        else if (next === "\r\n") state = "headers";
        else throw new MultipartError("Malformed boundary line");
        pending = pending.subarray(2);
        return true;
      }
      case "headers": {
        const at = pending.indexOf(CRLF2);
        if (at < 0) {
          if (pending.length > MAX_HEADER_BYTES) throw new MultipartError("Part headers are too long");
          return false;
        }
        sink = await onPart(parseHeaders(pending.toString("utf8", 0, at)));
        pending = pending.subarray(at + 4);
        state = "body";
        return true;
      }
      case "body": {
        const at = pending.indexOf(delimiter);
        // Without a delimiter, all but its possible start at the very end is data.
        const safe = at >= 0 ? at : Math.max(0, pending.length - delimiter.length + 1);
        if (safe > 0) await sink!.write(pending.subarray(0, safe));
        if (at < 0) {
          pending = Buffer.from(pending.subarray(safe));
          return false;
        }
        await sink!.end();
        sink = null;
        pending = pending.subarray(at + delimiter.length);
        state = "after";
        return true;
      }
      case "done":
        return false;
    }
  };

  const reader = body.getReader();
  try {
    while (state !== "done") {
      const { done, value } = await reader.read();
      if (done) break;
      pending = pending.length ? Buffer.concat([pending, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      while (await step());
    }
  } finally {
    // Whatever follows the closing boundary (the epilogue), or the rest after an error, is not read.
    await reader.cancel().catch(() => undefined);
  }
  if (state !== "done") throw new MultipartError("The body ended before the closing boundary");
}
