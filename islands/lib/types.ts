// Client-side shapes layered over the protocol's entity types (import type only: no server code
// reaches the bundle).
import type { AllowFrom, BanNotice, Message, OwnUser, PublicUser, RoulettePartner, WarningNotice } from "../../src/realtime/protocol.ts";

export type { AllowFrom, BanNotice, Message, OwnUser, PublicUser, RoulettePartner, WarningNotice };

/** A user as the lists hold them; the chat list adds the latest message and unread count. */
export interface ChatUser extends PublicUser {
  latest_message?: Message | null;
  unread_count?: number;
  /** In the chat list: whether I have written to them. */
  is_contact?: boolean;
}

/** One row of the message area: a plain message, or several files sent together. */
export type DisplayMessage =
  | { kind: "single"; key: string; message: Message }
  | { kind: "file_group"; key: string; message: Message; files: Message[] };

export type Tab = "users" | "chats" | "video" | "settings";
export type ViewMode = "chat" | "profile";
export type SettingsSection = "profile" | "blocked" | "privacy" | "safety" | "notifications" | "language";

export interface UnreadItem {
  sender_id: number;
  sender_name: string;
  unread_count: number;
}

export interface Country {
  code: string;
  name: string;
}

/** Lightbox image (spec section 3): url, name, message. */
export interface LightboxImage {
  url: string;
  name: string;
  message: Message;
}

export type TickState = "sent" | "delivered" | "read";
