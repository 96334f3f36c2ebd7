// The whole database. Times are integer milliseconds since the epoch (UTC); the API turns them
// into ISO strings. Migrations in db/migrations are generated from this file (npm run
// db:generate) and applied at start-up.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    /** Lower-cased username: uniqueness ignores case. */
    usernameKey: text("username_key").notNull(),
    /**
     * The username's UTS #39 confusable skeleton (src/users/names/skeleton.ts): no two accounts
     * may share one. Filled at start-up for rows made before it; null for a later account whose
     * name already looked like an older one's (the older keeps it).
     */
    usernameSkeleton: text("username_skeleton"),
    email: text("email"),
    emailKey: text("email_key"),
    passwordHash: text("password_hash"),
    name: text("name").notNull(),
    gender: text("gender").notNull(),
    orientation: text("orientation").notNull().default("heterosexual"),
    age: integer("age"),
    countryCode: text("country_code"),
    countryName: text("country_name"),
    /** Path under /uploads/, e.g. "avatars/3f9c….png". */
    avatarPath: text("avatar_path"),
    isGuest: integer("is_guest", { mode: "boolean" }).notNull().default(false),
    isOnline: integer("is_online", { mode: "boolean" }).notNull().default(false),
    lastSeen: integer("last_seen").notNull(),
    createdAt: integer("created_at").notNull(),
    /** A ban: banned with a null bannedUntil is permanent. */
    banned: integer("banned", { mode: "boolean" }).notNull().default(false),
    bannedUntil: integer("banned_until"),
    /** When the user confirmed being 18 or older; null for accounts made before that rule. */
    adultConfirmedAt: integer("adult_confirmed_at"),
    /** Who may message and call this user: "everyone" or "contacts" (people they wrote to). */
    allowFrom: text("allow_from").notNull().default("everyone"),
    /** "user", "moderator" or "admin". */
    role: text("role").notNull().default("user"),
    /** Blur nudity in strangers' video and in pictures (issue 12): on unless the user turned it off. */
    blurNudity: integer("blur_nudity", { mode: "boolean" }).notNull().default(true),
    /** Set by enough weighted reports or by a moderator: no roulette while it runs. */
    rouletteSuspendedAt: integer("roulette_suspended_at"),
    /** End of a moderator's suspension; null with rouletteSuspendedAt set: until a moderator decides. */
    rouletteSuspendedUntil: integer("roulette_suspended_until"),
    /** The reason a moderator gave (null for the automatic suspension). */
    rouletteSuspensionReason: text("roulette_suspension_reason"),
    /** The optional free-form profile object (src/users/profile.ts bounds it), as JSON text. */
    profile: text("profile"),
    /** Interests (issue 24): a JSON array of at most 10 normalised tags (src/users/interests.ts). */
    interests: text("interests").notNull().default("[]"),
    /** Languages the person speaks (issue 24): a JSON array of at most 5 ISO 639-1 codes. */
    languages: text("languages").notNull().default("[]"),
    /** The interface language the user chose (src/i18n/locales.ts); null: the browser's. */
    locale: text("locale"),
  },
  (t) => [
    uniqueIndex("users_username_key").on(t.usernameKey),
    uniqueIndex("users_username_skeleton").on(t.usernameSkeleton),
    uniqueIndex("users_email_key").on(t.emailKey),
    // The people list: online first, most recently seen first.
    index("users_presence").on(t.isOnline, t.lastSeen),
    // Find Users by country: that country's people already in the list's order.
    index("users_country").on(t.countryCode, t.isOnline, t.lastSeen),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    /** The browser's long-lived device cookie when the session began (for device bans). */
    deviceId: text("device_id"),
    /** HMAC of the client address with the server secret, never the address itself (address bans). */
    addressHash: text("address_hash"),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    receiverId: integer("receiver_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The two participants ordered low/high: one index serves a conversation both ways. */
    pairLo: integer("pair_lo").notNull(),
    pairHi: integer("pair_hi").notNull(),
    content: text("content").notNull(),
    messageType: text("message_type").notNull(),
    fileName: text("file_name"),
    filePath: text("file_path"),
    fileSize: integer("file_size"),
    fileMime: text("file_mime"),
    groupId: text("group_id"),
    clientMessageId: text("client_message_id"),
    /** Removed by a moderator: content and file are gone; both sides see "Removed by a moderator". */
    removedAt: integer("removed_at"),
    /** The message this one answers (same conversation, not deleted when the reply was sent). */
    replyToId: integer("reply_to_id"),
    /** The sender's last edit of a text message (within 15 minutes of sending). */
    editedAt: integer("edited_at"),
    /** Deleted for everyone by its sender: content and file are gone, the row and its times stay. */
    deletedAt: integer("deleted_at"),
    /** A voice message's length in milliseconds, as checked at upload. */
    durationMs: integer("duration_ms"),
    /** Strictly increasing across all messages, so time cursors never skip or repeat. */
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
    readAt: integer("read_at"),
  },
  (t) => [
    index("messages_conversation").on(t.pairLo, t.pairHi, t.createdAt),
    index("messages_unread").on(t.receiverId, t.readAt, t.senderId),
    index("messages_undelivered").on(t.receiverId, t.deliveredAt),
    index("messages_file").on(t.filePath),
    uniqueIndex("messages_client_id")
      .on(t.senderId, t.clientMessageId)
      .where(sql`client_message_id IS NOT NULL`),
  ],
);

/** One reaction per person per message (issue 25); the same emoji again removes it. */
export const messageReactions = sqliteTable(
  "message_reactions",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    emoji: text("emoji").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

/**
 * The chat list, one row per (owner, partner): each side reads its own rows in its own order
 * through one index, and its unread count sits on its row. Kept in step with messages by
 * src/messages/conversations.ts in the transaction that stores or reads them.
 */
export const conversations = sqliteTable(
  "conversations",
  {
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The pair's newest message either way (removed ones too: the list shows them as removed). */
    lastMessageId: integer("last_message_id").notNull(),
    lastMessageAt: integer("last_message_at").notNull(),
    /** Messages from partner to owner not yet read by the owner. */
    unreadCount: integer("unread_count").notNull().default(0),
  },
  (t) => [
    // The chat list reads one owner's rows by this key and sorts them by time: it is every
    // conversation of the owner, so an index on the time would save only that sort, and each
    // message would rewrite two of its entries (dropped in 0015, as PostgreSQL's in its 0001).
    primaryKey({ columns: [t.ownerId, t.partnerId] }),
  ],
);

/** One person blocking another. Either direction keeps the two apart (API.md "Safety"). */
export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked").on(t.blockedId)],
);

/**
 * A Video Roulette stranger blocked by pairing id (issue 18): kept apart from `blocks` so that no
 * named block, unblock, list or presence ever reads it. Its only effect is that the two are never
 * paired again. One row per pairing blocked, so the count never tells two pairings were one person.
 */
export const rouletteBlocks = sqliteTable(
  "roulette_blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rouletteId: text("roulette_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.rouletteId] })],
);

/**
 * The browsers (device cookies) an account signed in from, newest kept: sessions are deleted on
 * logout and expiry, so this is what links a new account to the earlier ones of its browser.
 */
export const userDevices = sqliteTable(
  "user_devices",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] }), index("user_devices_device").on(t.deviceId, t.lastSeenAt)],
);

/**
 * An account made from a browser that earlier accounts used carries what those accounts are
 * subject to (blocks against them, roulette suspensions), read live: lifting one lifts both.
 */
export const deviceCarriers = sqliteTable(
  "device_carriers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.carrierId] })],
);

/** A report with the evidence captured when it was made; moderators work from these. */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reporterId: integer("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reportedId: integer("reported_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** chat, message, call, roulette or profile. */
    context: text("context").notNull(),
    /** sexual_content, underage, harassment, spam, violence or other. */
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    messageId: integer("message_id"),
    rouletteId: text("roulette_id"),
    /** JSON: the conversation's last messages, or the roulette session's text chat. */
    transcript: text("transcript"),
    /** Path of the still under DATA_DIR/evidence (never under /uploads). */
    evidencePath: text("evidence_path"),
    /**
     * The TensorFlow.js backend the reporter's on-device nudity check ran on when the still was
     * taken (wasm-simd, wasm, webgl, cpu); null without a still or without a check (issue 21).
     */
    stillBackend: text("still_backend"),
    /** What this report counts toward automatic suspension (see docs/DECISIONS.md); 0 when the reporter never met the person. */
    weight: real("weight").notNull().default(0),
    /** Keyed hash of the network (IPv4 address or IPv6 /64) the report came from, never the address: one vote per network. */
    reporterAddressHash: text("reporter_address_hash"),
    /** The device (`did` cookie, else the session's) the report came from: one vote per device. */
    reporterDeviceId: text("reporter_device_id"),
    /** open, dismissed or actioned. */
    status: text("status").notNull().default("open"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** When a moderator first acted on it (for the median time to action). */
    firstActionAt: integer("first_action_at"),
    closedAt: integer("closed_at"),
    closedBy: integer("closed_by").references(() => users.id, { onDelete: "set null" }),
    /** When the retention sweep deleted its evidence, transcript and still. */
    purgedAt: integer("purged_at"),
  },
  (t) => [
    index("reports_reported").on(t.reportedId, t.createdAt),
    index("reports_reporter").on(t.reporterId, t.createdAt),
    index("reports_status").on(t.status, t.createdAt),
  ],
);

/**
 * The last answered call between two people (user_lo < user_hi): a report weighs toward the
 * automatic roulette suspension only from someone who met the reported person (reports/contact.ts).
 */
export const callMeetings = sqliteTable(
  "call_meetings",
  {
    userLo: integer("user_lo")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userHi: integer("user_hi")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    answeredAt: integer("answered_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userLo, t.userHi] }), index("call_meetings_answered").on(t.answeredAt)],
);

/**
 * Roulette pairings that can still be reported (src/roulette/persist.ts): the copy on disk of the
 * in-memory sessions, written every second and at shutdown so that a restart does not end the
 * 10 minutes in which a partner can be reported or blocked. A row goes when memory forgets its
 * session. No foreign keys: users are never deleted, and a batch must never fail on one row.
 */
export const rouletteSessions = sqliteTable("roulette_sessions", {
  /**
   * The row's own key, in the order rows are written: new rows go to the end of the table and old
   * ones leave from its start, so a pass rewrites few pages (random pairing ids as the key touched
   * pages all over the table and its index). The store keeps it on the session; nothing looks a
   * row up by pairing id.
   */
  row: integer("row").primaryKey(),
  /** The opaque pairing id the partners know each other by. */
  id: text("id").notNull(),
  userA: integer("user_a").notNull(),
  userB: integer("user_b").notNull(),
  startedAt: integer("started_at").notNull(),
  /** Null while the pairing ran when last written; start-up ends those at the restart. */
  endedAt: integer("ended_at"),
  /** JSON array of the text chat's lines, {senderId, text, at}, newest last. */
  lines: text("lines").notNull().default("[]"),
});

/** Every ban, current and past; users.banned / banned_until mirror the one in force. */
export const bans = sqliteTable(
  "bans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Shown to the user (a statement of reasons). */
    reason: text("reason").notNull(),
    /** End of the ban; null: permanent. */
    until: integer("until"),
    createdAt: integer("created_at").notNull(),
    /** The moderator; null when made with scripts/moderate.ts. */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Keyed hash of the address also banned; cleared when the ban ends. */
    addressHash: text("address_hash"),
    liftedAt: integer("lifted_at"),
    liftedBy: integer("lifted_by").references(() => users.id, { onDelete: "set null" }),
    liftReason: text("lift_reason"),
  },
  (t) => [index("bans_user").on(t.userId, t.createdAt), index("bans_address").on(t.addressHash)],
);

/** The devices (long-lived cookie ids) a ban also covers: no new account from them while it runs. */
export const banDevices = sqliteTable(
  "ban_devices",
  {
    banId: integer("ban_id")
      .notNull()
      .references(() => bans.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.banId, t.deviceId] }), index("ban_devices_device").on(t.deviceId)],
);

/** One appeal per ban. */
export const appeals = sqliteTable(
  "appeals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    banId: integer("ban_id")
      .notNull()
      .references(() => bans.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** open, upheld or lifted. */
    status: text("status").notNull().default("open"),
    /** The moderator's answer, which the user reads. */
    response: text("response"),
    createdAt: integer("created_at").notNull(),
    decidedAt: integer("decided_at"),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("appeals_ban").on(t.banId), index("appeals_status").on(t.status, t.createdAt)],
);

/** A moderator's warning; the user must acknowledge it. */
export const warnings = sqliteTable(
  "warnings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    acknowledgedAt: integer("acknowledged_at"),
  },
  (t) => [index("warnings_user").on(t.userId, t.acknowledgedAt)],
);

/** Append-only: who did what to whom, when and why. Nothing updates or deletes these rows. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    /** The moderator or admin; null for scripts/moderate.ts and the retention sweep. */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** warn, ban, unban, remove_message, remove_avatar, suspend_roulette, lift_suspension, dismiss, end_sessions, grant_role, revoke_role, uphold_appeal, lift_appeal, delete_report, retention_sweep ... */
    action: text("action").notNull(),
    targetUserId: integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
    /** JSON array of the report ids this action closed. */
    reportIds: text("report_ids"),
    reason: text("reason"),
    /** JSON: whatever else identifies the action (ban id, days, message id, role...). */
    detail: text("detail"),
  },
  (t) => [index("audit_at").on(t.at), index("audit_target").on(t.targetUserId, t.at), index("audit_action").on(t.action, t.at)],
);

/**
 * How many people list each interest tag (issue 24), kept with every profile change in the same
 * transaction. Suggestions read only this table, and only tags with at least 5 people: it never
 * names who uses a tag, and a tag one person made up is never suggested to anyone.
 */
export const interestTags = sqliteTable(
  "interest_tags",
  {
    tag: text("tag").primaryKey(),
    uses: integer("uses").notNull(),
  },
  (t) => [index("interest_tags_uses").on(t.uses)],
);

/**
 * Web Push subscriptions (issue 26), one per browser that opted in. Tied to the session it was
 * made in: a logout, an expired or revoked session deletes it, so a shared screen stops hearing
 * about the account that left. The endpoint is unique: a browser signed in to another account
 * moves its subscription there. Queried only by src/push/store.ts.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The browser's P-256 public key and auth secret (base64url), for RFC 8291 encryption. */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** "Show message previews in notifications" on this device: off unless the person turns it on. */
    previews: integer("previews", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint").on(t.endpoint), index("push_subscriptions_user").on(t.userId), index("push_subscriptions_session").on(t.sessionId)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
export type MessageReactionRow = typeof messageReactions.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type BlockRow = typeof blocks.$inferSelect;
export type RouletteBlockRow = typeof rouletteBlocks.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;
export type BanRow = typeof bans.$inferSelect;
export type AppealRow = typeof appeals.$inferSelect;
export type WarningRow = typeof warnings.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
export type RouletteSessionRow = typeof rouletteSessions.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
