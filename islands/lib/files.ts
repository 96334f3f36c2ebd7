// Files in the chat: image detection, grouping into file_group, the image grid and the checks
// made before a file leaves the browser (spec sections 2, 5 and 9).
import type { DisplayMessage, LightboxImage, Message } from "./types.ts";
import { localeTag, t } from "../i18n.ts";

export const MAX_UPLOAD_BYTES = 10_485_760;
/** The server takes at most 10 files per multi-upload (API.md), so larger drops go in batches. */
export const MAX_FILES_PER_UPLOAD = 10;
export const MAX_GRID_TILES = 9;
const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "bmp", "svg"];

/** Image detection is by the name's extension. */
export function isImageName(name: string | null | undefined): boolean {
  const ext = (name ?? "").split(".").pop()?.toLowerCase() ?? "";
  return (name ?? "").includes(".") && IMAGE_EXTENSIONS.includes(ext);
}

export const isFileMessage = (m: Message) => m.message_type === "file" || m.message_type === "image";
export const isImageMessage = (m: Message) => isFileMessage(m) && isImageName(m.file_name ?? m.file_path);

/** Where an uploaded file is served from. */
export const fileUrl = (m: Message) => `/uploads/${m.file_path ?? ""}`;

/**
 * Messages in display order: every message sharing a group_id is merged into one file_group entry
 * at the place of the group's first message.
 */
export function groupMessages(messages: Message[]): DisplayMessage[] {
  const out: DisplayMessage[] = [];
  const groups = new Map<string, Message[]>();
  for (const message of messages) {
    const groupId = message.group_id;
    if (!groupId) {
      out.push({ kind: "single", key: `m-${message.id}`, message });
      continue;
    }
    const files = groups.get(groupId);
    if (files) {
      files.push(message);
      continue;
    }
    const list = [message];
    groups.set(groupId, list);
    out.push({ kind: "file_group", key: `g-${groupId}`, message, files: list });
  }
  return out;
}

export type GridLayout = "one" | "two" | "three" | "four" | "many";

export function gridLayout(count: number): GridLayout {
  if (count <= 1) return "one";
  if (count === 2) return "two";
  if (count === 3) return "three";
  if (count === 4) return "four";
  return "many";
}

export interface GridTile<T> {
  item: T;
  index: number;
  /** Set on the ninth tile when there are more than nine images: how many are not shown. */
  more: number;
}

/** At most nine tiles; the ninth carries "+N" when more images exist. */
export function gridTiles<T>(items: T[]): GridTile<T>[] {
  const shown = items.slice(0, MAX_GRID_TILES);
  const hidden = items.length - MAX_GRID_TILES;
  return shown.map((item, index) => ({ item, index, more: index === MAX_GRID_TILES - 1 && hidden > 0 ? hidden : 0 }));
}

/** Every image of the conversation, in order, for the lightbox. */
export function lightboxImages(messages: Message[]): LightboxImage[] {
  return messages
    .filter(isImageMessage)
    .map((message) => ({ url: fileUrl(message), name: message.file_name ?? t("chat.unnamed_image"), message }));
}

/** Files the chat accepts: at most 10 MB each. */
export function acceptableFiles(files: File[]): File[] {
  return files.filter((f) => f.size > 0 && f.size <= MAX_UPLOAD_BYTES);
}

export function batches<T>(items: T[], size: number = MAX_FILES_PER_UPLOAD): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const AVATAR_MAX_BYTES = 5_242_880;
const AVATAR_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/gif", "image/webp"];
const AVATAR_EXTENSIONS = [".jpg", ".jpeg", ".png", ".gif", ".webp"];

/** The avatar checks of spec section 5; answers the alert text, or null when the file is fine. */
export function avatarProblem(file: { name: string; type: string; size: number }): string | null {
  if (!AVATAR_TYPES.includes(file.type.toLowerCase())) {
    return t("chat.avatar_bad_type", { list: AVATAR_TYPES.join(", ") });
  }
  const name = file.name.toLowerCase();
  if (!AVATAR_EXTENSIONS.some((ext) => name.endsWith(ext))) {
    return t("chat.avatar_bad_extension", { list: AVATAR_EXTENSIONS.join(", ") });
  }
  if (file.size > AVATAR_MAX_BYTES) {
    const size = new Intl.NumberFormat(localeTag(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(file.size / 1024 / 1024);
    return t("chat.avatar_too_large", { size });
  }
  if (file.name.includes("..") || file.name.includes("/") || file.name.includes("\\")) {
    return t("chat.avatar_bad_name");
  }
  return null;
}
