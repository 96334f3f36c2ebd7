// Everything about files: sending them in a chat, avatars, and serving /uploads/.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { avatarRoutes } from "./avatars.ts";
import { chatUploadRoutes } from "./chat.ts";
import { serveUploads } from "./serve.ts";

export function uploadRoutes(ctx: AppContext) {
  // Serving comes first: it reads the cookie itself and must not inherit the bearer guard.
  return new Elysia().use(serveUploads(ctx)).use(chatUploadRoutes(ctx)).use(avatarRoutes(ctx));
}
