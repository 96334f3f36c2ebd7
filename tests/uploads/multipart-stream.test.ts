// The streaming multipart reader against Bun's own encoder, in any chunking.
import { describe, expect, test } from "bun:test";
import { boundaryOf, MultipartError, readMultipart, type PartInfo } from "../../src/uploads/multipart-stream.ts";

async function encoded(form: FormData) {
  const response = new Response(form);
  return { type: response.headers.get("content-type")!, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>, boundary: string) {
  const parts: { info: PartInfo; data: Buffer }[] = [];
  await readMultipart(body, boundary, async (info) => {
    const chunks: Buffer[] = [];
    return {
      write: async (chunk) => void chunks.push(Buffer.from(chunk)),
      end: async () => void parts.push({ info, data: Buffer.concat(chunks) }),
    };
  });
  return parts;
}

describe("readMultipart", () => {
  test("reads fields and files whatever size the chunks arrive in, including data that looks like a boundary", async () => {
    const tricky = new TextEncoder().encode("line\r\n--not the boundary\r\n\r\nend\r\n-");
    const form = new FormData();
    form.append("receiverId", "42");
    form.append("files", new File([tricky], "a.txt"));
    form.append("files", new File([new Uint8Array(5000).fill(9)], "b.bin"));
    const { type, bytes } = await encoded(form);
    const boundary = boundaryOf(type)!;
    for (const size of [1, 7, 64, 4096, bytes.length]) {
      const parts = await collect(chunked(bytes, size), boundary);
      expect(parts.map((p) => [p.info.name, p.info.filename, p.data.length])).toEqual([
        ["receiverId", null, 2],
        ["files", "a.txt", tricky.length],
        ["files", "b.bin", 5000],
      ]);
      expect(new Uint8Array(parts[1]!.data)).toEqual(tricky);
    }
  });

  test("refuses a body that ends before its closing boundary", async () => {
    const body = "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nunterminated";
    await expect(collect(chunked(new TextEncoder().encode(body), 8), "x")).rejects.toBeInstanceOf(MultipartError);
  });

  test("refuses part headers longer than 8 KB", async () => {
    const body = `--x\r\nContent-Disposition: form-data; name="a"\r\nX-Padding: ${"p".repeat(9000)}`;
    await expect(collect(chunked(new TextEncoder().encode(body), 1024), "x")).rejects.toBeInstanceOf(MultipartError);
  });

  test("finds the boundary in a quoted or plain content type and nothing in other types", () => {
    expect(boundaryOf('multipart/form-data; boundary="abc def"')).toBe("abc def");
    expect(boundaryOf("multipart/form-data; boundary=----x1")).toBe("----x1");
    expect(boundaryOf("application/json")).toBeNull();
  });
});
