// Files for upload tests: real images made with sharp, multipart forms around them, and the app
// with two users that the upload test files share.
import { afterAll, beforeAll } from "bun:test";
import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import sharp from "sharp";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

type Registered = Awaited<ReturnType<typeof registerUser>>;

/** For a whole file: a test app with Alice and Bob registered in beforeAll, closed in afterAll; read it inside tests. */
export function aliceAndBob(): { t: TestApp; alice: Registered; bob: Registered } {
  const pair = {} as { t: TestApp; alice: Registered; bob: Registered };
  beforeAll(async () => {
    pair.t = makeTestApp();
    [pair.alice, pair.bob] = [await registerUser(pair.t), await registerUser(pair.t)];
  });
  afterAll(() => pair.t.close());
  return pair;
}

/** Every file stored under `${dataDir}/uploads` (any folder but the spool of uploads in progress). */
export const storedFiles = (dataDir: string): string[] =>
  readdirSync(join(dataDir, "uploads"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.split(sep).includes(".spool"))
    .map((entry) => join(entry.parentPath, entry.name));

export const bytesOf = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

export const fileOf = (bytes: Uint8Array<ArrayBuffer> | string, name: string, type = "application/octet-stream"): File =>
  new File([typeof bytes === "string" ? bytesOf(bytes) : bytes], name, { type });


const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

export const pngBytes = async (width = 8, height = 8) => new Uint8Array(await solid(width, height).png().toBuffer());

/** Two frames, red then blue. */
export async function animatedGif(): Promise<Uint8Array<ArrayBuffer>> {
  const frame = async (colour: string) =>
    sharp({ create: { width: 4, height: 4, channels: 3, background: colour } }).png().toBuffer();
  const joined = sharp([await frame("red"), await frame("blue")], { join: { animated: true } });
  return new Uint8Array(await joined.gif({ delay: [100, 100], loop: 0 }).toBuffer());
}

/** A JPEG carrying EXIF (a copyright tag standing in for GPS) and, optionally, an orientation. */
export async function jpegWithExif(width = 16, height = 8, orientation?: number): Promise<Uint8Array<ArrayBuffer>> {
  const image = solid(width, height)
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: "secret location 52.52N 13.40E" } }, ...(orientation ? { orientation } : {}) });
  return new Uint8Array(await image.toBuffer());
}

/**
 * A valid PNG padded to exactly `size` bytes with a private ancillary chunk, which decoders
 * skip: lets tests hit a byte limit with a real image.
 */
export async function pngOfSize(size: number): Promise<Uint8Array<ArrayBuffer>> {
  const base = await pngBytes(4, 4);
  const iendAt = base.length - 12;
  const dataLength = size - base.length - 12;
  if (dataLength < 0) throw new Error(`cannot pad a ${base.length}-byte PNG to ${size}`);
  const chunk = new Uint8Array(12 + dataLength);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, dataLength);
  chunk.set(bytesOf("prVt"), 4);
  view.setUint32(8 + dataLength, Bun.hash.crc32(chunk.subarray(4, 8 + dataLength)));
  const out = new Uint8Array(size);
  out.set(base.subarray(0, iendAt), 0);
  out.set(chunk, iendAt);
  out.set(base.subarray(iendAt), iendAt + chunk.length);
  return out;
}

export const SVG_WITH_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>`;

export function uploadForm(receiverId: number | string | undefined, field: string, files: File[]): FormData {
  const form = new FormData();
  if (receiverId !== undefined) form.append("receiverId", String(receiverId));
  for (const file of files) form.append(field, file);
  return form;
}

/** Alice uploads one file named `name` to Bob in the chat; answers the server's answer. */
export const aliceSends = (u: ReturnType<typeof aliceAndBob>, bytes: Uint8Array<ArrayBuffer>, name: string) =>
  u.t.call("POST", "/api/messages/upload", { token: u.alice.token, body: uploadForm(u.bob.user.id, "file", [fileOf(bytes, name)]) });
