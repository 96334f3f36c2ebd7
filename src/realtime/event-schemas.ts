// The server's events and the entities they carry, as TypeBox schemas, so the API document
// (src/api-docs) can show them; an entity's title is the name the document shows it by.
// protocol.ts stays the source of the types; the check at the end of this file fails the build
// if a schema here and its interface there disagree in any field.
import { Type as t, type Static, type TSchema } from "@sinclair/typebox";
import { profileSchema } from "../users/profile.ts";
import type { BanNotice, Message, OwnUser, PublicUser, RoulettePartner, ServerEventName, ServerEvents, WarningNotice } from "./protocol.ts";

const IsoTime = t.String({ format: "date-time" });
const Nullable = <S extends TSchema>(schema: S) => t.Union([schema, t.Null()]);
const Empty = t.Object({});

export const publicUserSchema = t.Object({
  id: t.Integer(),
  username: t.String(),
  name: t.String(),
  gender: t.String(),
  orientation: t.String(),
  age: Nullable(t.Integer()),
  country_code: Nullable(t.String()),
  country_name: Nullable(t.String()),
  avatar_url: Nullable(t.String()),
  is_online: t.Boolean(),
  last_seen: IsoTime,
  created_at: IsoTime,
  is_guest: t.Boolean(),
  profile: Nullable(profileSchema),
  interests: t.Array(t.String()),
  languages: t.Array(t.String()),
}, { title: "PublicUser" });

export const ownUserSchema = t.Composite([
  publicUserSchema,
  t.Object({
    email: Nullable(t.String()),
    adult_confirmed_at: Nullable(IsoTime),
    allow_from: t.Union([t.Literal("everyone"), t.Literal("contacts")]),
    role: t.Union([t.Literal("user"), t.Literal("moderator"), t.Literal("admin")]),
    blur_nudity: t.Boolean(),
    locale: t.Union([t.String(), t.Null()]),
  }),
], { title: "OwnUser" });

const messageTypeSchema = t.Union([t.Literal("text"), t.Literal("emoji"), t.Literal("file"), t.Literal("image"), t.Literal("voice")]);

export const replyPreviewSchema = t.Object({
  id: t.Integer(),
  sender_name: t.String(),
  message_type: messageTypeSchema,
  content: t.String({ maxLength: 100 }),
}, { title: "ReplyPreview" });

export const messageSchema = t.Object({
  id: t.Integer(),
  sender_id: t.Integer(),
  receiver_id: t.Integer(),
  sender_name: t.String(),
  content: t.String(),
  message_type: messageTypeSchema,
  file_name: Nullable(t.String()),
  file_path: Nullable(t.String()),
  file_size: Nullable(t.Integer()),
  group_id: Nullable(t.String()),
  client_message_id: Nullable(t.String()),
  clientMessageId: Nullable(t.String()),
  created_at: IsoTime,
  is_delivered: t.Boolean(),
  delivered_at: Nullable(IsoTime),
  is_read: t.Boolean(),
  read_at: Nullable(IsoTime),
  is_removed: t.Boolean(),
  reply_to: Nullable(replyPreviewSchema),
  edited_at: Nullable(IsoTime),
  deleted_at: Nullable(IsoTime),
  reactions: t.Array(t.Object({ emoji: t.String(), user_ids: t.Array(t.Integer()) })),
  duration_ms: Nullable(t.Integer()),
  partner_id: t.Integer(),
}, { title: "Message" });

export const roulettePartnerSchema = t.Object({
  id: t.String(),
  name: t.Literal("Stranger"),
  gender: t.String(),
  country_code: Nullable(t.String()),
  country_name: Nullable(t.String()),
  age: Nullable(t.Integer()),
  sharedInterests: t.Array(t.String()),
  languages: t.Array(t.String()),
}, { title: "RoulettePartner" });

export const banNoticeSchema = t.Object({ reason: t.String(), until: Nullable(IsoTime), appeal_url: t.String() }, { title: "BanNotice" });
export const warningNoticeSchema = t.Object({ id: t.Integer(), reason: t.String(), created_at: IsoTime }, { title: "WarningNotice" });

const presence = t.Object({ userId: t.Integer(), name: t.String() });

export const serverEventSchemas = {
  pong: Empty,
  error: t.Object({ code: t.String(), message: t.String(), event: t.Optional(t.String()) }),
  user_online: presence,
  user_offline: presence,
  online_count: t.Object({ online: t.Integer({ minimum: 0 }) }),
  user_typing: t.Object({ userId: t.Integer(), name: t.String(), isTyping: t.Boolean() }),
  new_user_registered: t.Object({ name: t.String() }),
  new_message: t.Object({ message: messageSchema }),
  message_sent: t.Object({ message: messageSchema }),
  message_delivered: t.Object({ messageId: t.Integer(), deliveredAt: IsoTime, receiverId: t.Integer() }),
  messages_read_batch: t.Object({ messageIds: t.Array(t.Integer()), receiverId: t.Integer(), readAt: IsoTime }),
  incoming_call: t.Object({ callerId: t.Integer(), callerName: t.String(), callerPeerId: t.String() }),
  call_answered: t.Object({ answererPeerId: t.String() }),
  call_rejected: t.Object({
    reason: t.Union([t.Literal("offline"), t.Literal("busy"), t.Literal("declined"), t.Literal("no_answer")]),
  }),
  call_ended: Empty,
  roulette_partner_found: t.Object({ partner: roulettePartnerSchema, shouldCreateOffer: t.Boolean() }),
  roulette_partner_disconnected: Empty,
  roulette_partner_next: Empty,
  roulette_offer: t.Object({ offer: t.Unknown(), partnerId: t.String() }),
  roulette_answer: t.Object({ answer: t.Unknown(), partnerId: t.String() }),
  roulette_ice_candidate: t.Object({ candidate: t.Unknown(), partnerId: t.String() }),
  roulette_text: t.Object({ text: t.String(), at: IsoTime }),
  roulette_contact: t.Object({ user: publicUserSchema }),
  block_changed: t.Object({ userId: t.Integer(), blocked: t.Boolean() }),
  banned: banNoticeSchema,
  warning: warningNoticeSchema,
  message_removed: t.Object({ messageId: t.Integer() }),
  message_edited: t.Object({ messageId: t.Integer(), content: t.String(), edited_at: IsoTime }),
  message_deleted: t.Object({ messageId: t.Integer(), deleted_at: IsoTime }),
  message_reaction: t.Object({ messageId: t.Integer(), userId: t.Integer(), emoji: Nullable(t.String()) }),
};

// The drift check: each schema and its interface must be assignable both ways, every server
// event must have a schema, and no schema may name an event that does not exist. A failure names
// the event or entity that drifted.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type NoneDrifted<Names extends never> = Names;
export type EventSchemasAgree = NoneDrifted<
  | Exclude<keyof typeof serverEventSchemas, ServerEventName>
  | Exclude<ServerEventName, keyof typeof serverEventSchemas>
  | { [K in ServerEventName]: Same<Static<(typeof serverEventSchemas)[K]>, ServerEvents[K]> extends true ? never : K }[ServerEventName]
>;
type Drifted<Name extends string, Schema extends TSchema, Type> = Same<Static<Schema>, Type> extends true ? never : Name;
export type EntitySchemasAgree = NoneDrifted<
  | Drifted<"PublicUser", typeof publicUserSchema, PublicUser>
  | Drifted<"OwnUser", typeof ownUserSchema, OwnUser>
  | Drifted<"Message", typeof messageSchema, Message>
  | Drifted<"RoulettePartner", typeof roulettePartnerSchema, RoulettePartner>
  | Drifted<"BanNotice", typeof banNoticeSchema, BanNotice>
  | Drifted<"WarningNotice", typeof warningNoticeSchema, WarningNotice>
>;
