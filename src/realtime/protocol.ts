// Every realtime event, typed once. Client events are TypeBox schemas: the server validates
// frames with them, and the browser imports only their types (`import type`), so no schema
// code reaches a bundle. Server events are plain interfaces. Frames (API.md):
//   event:        {"event": name, "data": {...}, "ack"?: n}
//   ack answer:   {"ack": n, "data": {...}} or {"ack": n, "error": {code, message}}
import { Type as t, type Static } from "@sinclair/typebox";

/** User ids are integers; a numeric string is accepted too ("5"). */
const Id = t.Union([t.Integer({ minimum: 1 }), t.String({ pattern: "^[1-9][0-9]{0,15}$" })]);
const PeerId = t.String({ minLength: 1, maxLength: 128 });
/** A roulette pairing's opaque id (never a user id): new for every pairing. */
const RouletteId = t.String({ minLength: 1, maxLength: 64 });
/** WebRTC descriptions and candidates are relayed as they are; the frame limit bounds them. */
const Signal = t.Unknown();
const Empty = t.Object({});

/** Most ids one `presence_watch` may name. */
export const PRESENCE_WATCH_MAX = 200;

export const clientEvents = {
  ping: Empty,
  user_logout: Empty,
  user_back_online: Empty,
  /** The people this socket shows: it hears their presence too, until its next call replaces the list. */
  presence_watch: t.Object({ userIds: t.Array(Id, { maxItems: PRESENCE_WATCH_MAX }) }),
  send_message: t.Object({
    receiverId: Id,
    content: t.String(),
    messageType: t.Optional(t.Union([t.Literal("text"), t.Literal("emoji")])),
    clientMessageId: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    /** The message this one answers: same conversation, not deleted. */
    replyToId: t.Optional(Id),
  }),
  /** Own text messages, within EDIT_WINDOW_MS of sending; trimmed, 1 to 4000 characters. */
  edit_message: t.Object({ messageId: Id, content: t.String({ maxLength: 16_000 }) }),
  /** Own messages, for everyone. */
  delete_message: t.Object({ messageId: Id }),
  /** One of QUICK_REACTIONS; the same emoji again removes the reaction. */
  react: t.Object({ messageId: Id, emoji: t.String({ minLength: 1, maxLength: 16 }) }),
  typing_start: t.Object({ receiverId: Id }),
  typing_stop: t.Object({ receiverId: Id }),
  messages_read: t.Object({
    senderId: Id,
    receiverId: t.Optional(Id),
    readAt: t.Optional(t.Union([t.String(), t.Null()])),
    messageIds: t.Array(Id, { maxItems: 1000 }),
  }),
  call_user: t.Object({ receiverId: Id, callerPeerId: PeerId }),
  answer_call: t.Object({ callerId: Id, answererPeerId: PeerId }),
  reject_call: t.Object({ callerId: Id }),
  end_call: t.Object({ receiverId: Id }),
  roulette_search: t.Object({
    userId: t.Optional(Id),
    filters: t.Optional(
      t.Object({
        gender: t.Optional(t.Union([t.Literal("any"), t.Literal("male"), t.Literal("female")])),
        country: t.Optional(t.String({ pattern: "^(any|[A-Za-z]{2})$" })),
        // Issue 24: checked against the ISO 639-1 list and the interest rules by the handler.
        language: t.Optional(t.String({ pattern: "^(any|[A-Za-z]{2})$" })),
        interests: t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 50 })),
        interestsOnly: t.Optional(t.Boolean()),
      }),
    ),
  }),
  roulette_stop_search: t.Object({ userId: t.Optional(Id) }),
  roulette_next: t.Object({ userId: t.Optional(Id) }),
  roulette_offer: t.Object({ offer: Signal, partnerId: RouletteId }),
  roulette_answer: t.Object({ answer: Signal, partnerId: RouletteId }),
  roulette_ice_candidate: t.Object({ candidate: Signal, partnerId: RouletteId }),
  /** Trimmed by the server: 1 to ROULETTE_TEXT_MAX characters after trimming. */
  roulette_text: t.Object({ partnerId: RouletteId, text: t.String({ maxLength: 2000 }) }),
  roulette_keep_in_touch: t.Object({ partnerId: RouletteId }),
};

export { EDIT_WINDOW_MS, QUICK_REACTIONS, REPLY_PREVIEW_CHARS } from "./message-rules.ts";

/** Longest roulette text message, after trimming (API.md "Safety"). */
export const ROULETTE_TEXT_MAX = 500;

export type ClientEventName = keyof typeof clientEvents;
export type ClientEvents = { [K in ClientEventName]: Static<(typeof clientEvents)[K]> };

/** A user's optional free-form profile: a flat object of plain values (src/users/profile.ts bounds it). */
export type Profile = Record<string, string | number | boolean | null>;

/** The user as the API and socket send it (API.md "Entities as JSON"). */
export interface PublicUser {
  id: number;
  username: string;
  name: string;
  gender: string;
  orientation: string;
  age: number | null;
  country_code: string | null;
  country_name: string | null;
  avatar_url: string | null;
  is_online: boolean;
  last_seen: string;
  created_at: string;
  is_guest: boolean;
  /** Null when the user gave none. */
  profile: Profile | null;
  /** Issue 24: 0 to 10 normalised tags. */
  interests: string[];
  /** Issue 24: 0 to 5 ISO 639-1 codes of the languages the person speaks. */
  languages: string[];
}

export type AllowFrom = "everyone" | "contacts";
export type Role = "user" | "moderator" | "admin";

/** The signed-in user's own record. */
export interface OwnUser extends PublicUser {
  email: string | null;
  /** When they confirmed being 18 or older; null until they do (older accounts). */
  adult_confirmed_at: string | null;
  /** Who may message and call them. */
  allow_from: AllowFrom;
  role: Role;
  /** Blur nudity in strangers' video and in pictures (issue 12); on unless turned off. */
  blur_nudity: boolean;
  /** The interface language they chose (API.md "Interests and languages"); null: their browser's. */
  locale: string | null;
}

export type MessageType = "text" | "emoji" | "file" | "image" | "voice";

/** What a reply shows of the message it answers (its content cut at REPLY_PREVIEW_CHARS; empty once deleted). */
export interface ReplyPreview {
  id: number;
  sender_name: string;
  message_type: MessageType;
  content: string;
}

/** Who reacted with one emoji, in the order they reacted. */
export interface MessageReactions {
  emoji: string;
  user_ids: number[];
}

export interface Message {
  id: number;
  sender_id: number;
  receiver_id: number;
  sender_name: string;
  content: string;
  message_type: MessageType;
  file_name: string | null;
  file_path: string | null;
  file_size: number | null;
  group_id: string | null;
  client_message_id: string | null;
  /** The same id under the name the client sent it (API.md: "carries the clientMessageId back"). */
  clientMessageId: string | null;
  created_at: string;
  is_delivered: boolean;
  delivered_at: string | null;
  is_read: boolean;
  read_at: string | null;
  /** Removed by a moderator: content and file fields are empty. */
  is_removed: boolean;
  /** The message this one answers, or null. */
  reply_to: ReplyPreview | null;
  /** The sender's last edit, or null. */
  edited_at: string | null;
  /** Deleted for everyone by its sender: content and file fields are empty. */
  deleted_at: string | null;
  reactions: MessageReactions[];
  /** A voice message's length; null for every other type. */
  duration_ms: number | null;
  /** The other person of the conversation as the viewer sees it: receiver_id on their own message, else sender_id. */
  partner_id: number;
}

/** A roulette partner is a stranger: no user id, username, avatar or orientation. */
export interface RoulettePartner {
  /** The pairing's opaque id, new for every pairing; `partnerId` in every roulette relay. */
  id: string;
  name: "Stranger";
  gender: string;
  country_code: string | null;
  country_name: string | null;
  age: number | null;
  /** The interests both partners listed for this session (possibly none); never the stranger's whole list. */
  sharedInterests: string[];
  /** The languages the stranger speaks (ISO 639-1). */
  languages: string[];
}

export interface ServerEvents {
  pong: Record<string, never>;
  error: { code: string; message: string; event?: string };
  user_online: { userId: number; name: string };
  user_offline: { userId: number; name: string };
  /** Users online now, everyone counted; sent to every socket at most every 5 s, when it changed. */
  online_count: { online: number };
  user_typing: { userId: number; name: string; isTyping: boolean };
  new_user_registered: { name: string };
  new_message: { message: Message };
  message_sent: { message: Message };
  message_delivered: { messageId: number; deliveredAt: string; receiverId: number };
  messages_read_batch: { messageIds: number[]; receiverId: number; readAt: string };
  incoming_call: { callerId: number; callerName: string; callerPeerId: string };
  call_answered: { answererPeerId: string };
  call_rejected: { reason: "offline" | "busy" | "declined" | "no_answer" };
  call_ended: Record<string, never>;
  roulette_partner_found: { partner: RoulettePartner; shouldCreateOffer: boolean };
  roulette_partner_disconnected: Record<string, never>;
  roulette_partner_next: Record<string, never>;
  roulette_offer: { offer: unknown; partnerId: string };
  roulette_answer: { answer: unknown; partnerId: string };
  roulette_ice_candidate: { candidate: unknown; partnerId: string };
  roulette_text: { text: string; at: string };
  /** Sent to both only after both partners asked to keep in touch. */
  roulette_contact: { user: PublicUser };
  /** To the blocker's own tabs, so every tab hides (or shows again) that person at once. */
  block_changed: { userId: number; blocked: boolean };
  /** Sent just before a banned user's sockets close with 4403: the chat screen shows the ban page. */
  banned: BanNotice;
  /** A moderator's warning; shown until acknowledged (POST /api/warnings/:id/acknowledge). */
  warning: WarningNotice;
  /** A moderator removed a message (or a file): both sides show "Removed by a moderator". */
  message_removed: { messageId: number };
  /** To both people's sockets after the sender edited a text message. */
  message_edited: { messageId: number; content: string; edited_at: string };
  /** To both people's sockets after the sender deleted a message for everyone. */
  message_deleted: { messageId: number; deleted_at: string };
  /** To both: `userId` reacted with `emoji`, or took their reaction back (null). */
  message_reaction: { messageId: number; userId: number; emoji: string | null };
}

/** What a banned person is told (API.md "Moderation"): why, until when, and where to appeal. */
export interface BanNotice {
  reason: string;
  /** ISO time, or null for a permanent ban. */
  until: string | null;
  appeal_url: string;
}

export interface WarningNotice {
  id: number;
  reason: string;
  created_at: string;
}

export type ServerEventName = keyof ServerEvents;

/** Error codes sent in `error` events and failed acks. */
export const SocketErrorCode = {
  invalidFrame: "invalid_frame",
  unknownEvent: "unknown_event",
  validation: "validation",
  rateLimited: "rate_limited",
  notFound: "not_found",
  forbidden: "forbidden",
  notPaired: "not_paired",
  blocked: "blocked",
  notAccepting: "not_accepting",
  suspended: "suspended",
  adultConfirmationRequired: "adult_confirmation_required",
  internal: "internal",
  unavailable: "unavailable",
} as const;

export type ClientFrame<K extends ClientEventName = ClientEventName> = { event: K; data: ClientEvents[K]; ack?: number };

export type ServerFrame =
  | { [K in ServerEventName]: { event: K; data: ServerEvents[K] } }[ServerEventName]
  | { ack: number; data: object }
  | { ack: number; error: { code: string; message: string } };
