// GET and HEAD /uploads/<folder>/<name>: avatars to anyone, a chat file only to its two people.
// Everything that is not a raster image is a download that cannot run script, and a file the
// asker may not see is a 404 exactly like a file that does not exist.
import { Elysia } from "elysia";
import { operation } from "../api-docs/operation.ts";
import { sessionFor } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { bearerToken, sessionCookieOf } from "../http/request.ts";
import { findByFilePath } from "../messages/service.ts";
import { OCTET_STREAM, rasterMimeOfExt } from "./detect.ts";
import { isStoredPath, uploadFile } from "./storage.ts";

const PREFIX = "/uploads/";
const SANDBOX = "default-src 'none'; sandbox";
const AVATAR_CACHE = "public, max-age=31536000, immutable";
const CHAT_FILE_CACHE = "private, max-age=3600";
const VOICE_MIMES = new Set(["audio/webm", "audio/ogg"]);

/** The relative path asked for, if it can name a stored file at all. */
function relPathOf(request: Request): string | null {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(PREFIX)) return null;
  try {
    const decoded = decodeURIComponent(pathname.slice(PREFIX.length));
    return isStoredPath(decoded) ? decoded : null;
  } catch {
    return null;
  }
}

/** Images in <img> send the cookie; scripts and tools may send the bearer instead. */
async function askerId(ctx: AppContext, request: Request): Promise<number | null> {
  for (const token of [bearerToken(request.headers.get("authorization")), sessionCookieOf(request)]) {
    const session = token ? await sessionFor(ctx.db, ctx.config, token) : null;
    if (session) return session.user.id;
  }
  return null;
}

/** RFC 6266: a plain ASCII name for old clients and the exact name in UTF-8 for the rest. */
function disposition(kind: "inline" | "attachment", name: string | null): string {
  if (!name) return kind;
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function serve(ctx: AppContext, request: Request, withBody: boolean): Promise<Response> {
  const relPath = relPathOf(request);
  const full = relPath ? uploadFile(ctx.config, relPath) : null;
  if (!relPath || !full) throw notFound();
  const isAvatar = relPath.startsWith("avatars/");
  let name: string | null = null;
  let voiceMime: string | null = null;
  if (!isAvatar) {
    // Awaited: the read is a round trip on PostgreSQL.
    const message = await findByFilePath(ctx.db, relPath);
    const asker = await askerId(ctx, request);
    if (!message || asker === null || (asker !== message.senderId && asker !== message.receiverId)) throw notFound();
    name = message.fileName;
    // Checked by content when stored (voice.ts), so the inline player may have its real type.
    if (message.messageType === "voice" && message.fileMime && VOICE_MIMES.has(message.fileMime)) voiceMime = message.fileMime;
  }
  const file = Bun.file(full);
  if (!(await file.exists())) throw notFound();
  const raster = rasterMimeOfExt(relPath.slice(relPath.lastIndexOf(".") + 1));
  const headers: Record<string, string> = {
    "content-type": raster ?? voiceMime ?? OCTET_STREAM,
    "content-length": String(file.size),
    "content-disposition": disposition(raster || voiceMime ? "inline" : "attachment", name),
    "cache-control": isAvatar ? AVATAR_CACHE : CHAT_FILE_CACHE,
    "x-content-type-options": "nosniff",
  };
  if (!raster) headers["content-security-policy"] = SANDBOX;
  return new Response(withBody ? file : null, { headers });
}

export function serveUploads(ctx: AppContext) {
  return new Elysia()
    .get("/uploads/*", ({ request }) => serve(ctx, request, true), {
      detail: operation({
        tag: "Messages",
        summary: "A stored file: an avatar to anyone, a chat file only to its sender and receiver",
        description:
          "The session cookie (for <img>) or a bearer token says who asks; anyone else gets 404. " +
          "Anything but a raster image is an attachment that cannot run script.",
        public: true,
        path: { path: "The file_path of a message, or the path of an avatar_url under /uploads/" },
        ok: { description: "The file" },
        errors: [404],
      }),
    })
    // HEAD is GET without the body: documented once, under GET.
    .head("/uploads/*", ({ request }) => serve(ctx, request, false), { detail: { hide: true } });
}
