// Receives a multipart upload straight into spool files: never more than a chunk of it in
// memory, each file cut off at its size limit, the body's bytes counted against the bound on
// bytes in flight. The caller must dispose() what it got, whatever happens next.
import { rm } from "node:fs/promises";
import type { AppContext } from "../context.ts";
import { AppError, validationError } from "../http/errors.ts";
import { tooLarge, MAX_REQUEST_BYTES } from "./limits.ts";
import { boundaryOf, MultipartError, readMultipart, type PartSink } from "./multipart-stream.ts";
import { displayName } from "./names.ts";
import { asStorageError, spoolPath, type DiskWriter } from "./storage.ts";

export interface SpooledFile {
  /** The name for display, cleaned of separators and control characters. */
  name: string;
  path: string;
  size: number;
}

export interface Received {
  fields: Map<string, string>;
  files: SpooledFile[];
  /** Spool files made later (cleaned pictures) that dispose() must remove too. */
  track(path: string): void;
  dispose(): Promise<void>;
}

export interface ReceiveRules {
  fileField: string;
  maxFileBytes: number;
  maxFiles: number;
  /** The 400 for one file too many, in the route's words. */
  tooMany: () => AppError;
}

/** Text fields of an upload are ids: a few bytes. */
const MAX_FIELD_BYTES = 4096;
const MAX_PARTS = 64;

const unreadable = () => validationError({ body: "The upload could not be read" }, "The upload could not be read (malformed form data)");

export async function receiveUpload(ctx: AppContext, userId: number, request: Request, rules: ReceiveRules): Promise<Received> {
  const boundary = boundaryOf(request.headers.get("content-type") ?? "");
  if (!boundary || !request.body) {
    throw validationError({ body: "Send the file as multipart/form-data" }, "Send the file as multipart/form-data");
  }
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > MAX_REQUEST_BYTES) throw new AppError(413, "too_large", "The upload is larger than the 10 files of 10 MB one request may carry");
  const { inflight, disk } = ctx.uploads;
  // A declared length is counted up front, so a refusal comes before any byte is read.
  let counted = Number.isFinite(declared) ? declared : 0;
  inflight.take(userId, counted);

  const paths: string[] = [];
  /** Spool files still being written, closed before they are removed. */
  const writing = new Set<DiskWriter>();
  const fields = new Map<string, string>();
  const files: SpooledFile[] = [];
  let parts = 0;
  let read = 0;
  const received: Received = {
    fields,
    files,
    track: (path) => void paths.push(path),
    async dispose() {
      await Promise.all([...writing].map((writer) => writer.close().catch(() => undefined)));
      await Promise.all(paths.map((path) => rm(path, { force: true })));
      inflight.give(userId, counted);
    },
  };

  const fileSink = async (name: string): Promise<PartSink> => {
    const path = spoolPath(ctx.config.dataDir);
    paths.push(path);
    const writer: DiskWriter = await disk.create(path);
    writing.add(writer);
    const file: SpooledFile = { name, path, size: 0 };
    return {
      async write(chunk) {
        file.size += chunk.byteLength;
        if (file.size > rules.maxFileBytes) throw tooLarge(name, rules.maxFileBytes);
        await writer.write(chunk);
      },
      async end() {
        writing.delete(writer);
        await writer.close();
        files.push(file);
      },
    };
  };
  const textSink = (name: string): PartSink => {
    const chunks: Buffer[] = [];
    let size = 0;
    return {
      async write(chunk) {
        size += chunk.byteLength;
        if (size > MAX_FIELD_BYTES) throw validationError({ [name]: `${name} is too long` });
        chunks.push(Buffer.from(chunk));
      },
      async end() {
        fields.set(name, Buffer.concat(chunks).toString("utf8"));
      },
    };
  };
  const ignored: PartSink = { write: async () => undefined, end: async () => undefined };

  // Counts what arrives beyond the declared length (or all of it when none was declared).
  const counting = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > MAX_REQUEST_BYTES) throw new AppError(413, "too_large", "The upload is larger than the 10 files of 10 MB one request may carry");
        if (read > counted) {
          inflight.take(userId, read - counted);
          counted = read;
        }
        controller.enqueue(chunk);
      },
    }),
  );

  try {
    await readMultipart(counting, boundary, async (part) => {
      if (++parts > MAX_PARTS) throw unreadable();
      if (part.filename === null) return textSink(part.name);
      if (part.name !== rules.fileField) return ignored;
      if (files.length + 1 > rules.maxFiles) throw rules.tooMany();
      return fileSink(displayName(part.filename));
    });
    return received;
  } catch (error) {
    await received.dispose();
    if (error instanceof MultipartError) throw unreadable();
    if (error instanceof AppError) throw error;
    const storage = asStorageError(error);
    if (storage instanceof AppError) throw storage;
    // Other file-system errors are ours (a 500); a body the client broke off is a 400.
    if (error instanceof Error && "code" in error && /^E[A-Z]+$/.test(String(error.code))) throw error;
    throw unreadable();
  }
}
