// The whole database on PostgreSQL (DATABASE_URL=postgres://...): the same tables, columns, export
// names and row types as db/schema.ts (SQLite, the default), which stays the one to read for what
// each column means; tests/db/schema-parity.test.ts fails to compile if a row type drifts.
// Differences, all invisible above the storage seam (docs/DECISIONS.md "Issue 22"):
// - times are `bigint` milliseconds since the epoch in `number` mode, as on SQLite, so every row
//   and every JSON answer stays identical (no timestamptz conversions anywhere);
// - flags are `boolean`, `reports.weight` is `double precision`;
// - ids are identity columns (by default, so the SQLite-to-PostgreSQL copy keeps its ids);
// - `messages_conversation` ends in `id`: the page cursor is (created_at, id), exact when two
//   instances store into one conversation in the same millisecond;
// - `conversations` is an ordinary table (SQLite's is WITHOUT ROWID; PostgreSQL has no such thing
//   and its primary key index serves the upsert alike).
// Migrations in db/migrations-pg are generated from this file (drizzle-kit generate --config
// drizzle.pg.config.ts) and applied at start-up under pg_advisory_lock (src/storage/pg-migrate.ts).
import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    isGuest: boolean("is_guest").notNull().default(false),
    isOnline: boolean("is_online").notNull().default(false),
    lastSeen: bigint("last_seen", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** A ban: banned with a null bannedUntil is permanent. */
    banned: boolean("banned").notNull().default(false),
    bannedUntil: bigint("banned_until", { mode: "number" }),
    /** When the user confirmed being 18 or older; null for accounts made before that rule. */
    adultConfirmedAt: bigint("adult_confirmed_at", { mode: "number" }),
    /** Who may message and call this user: "everyone" or "contacts" (people they wrote to). */
    allowFrom: text("allow_from").notNull().default("everyone"),
    /** "user", "moderator" or "admin". */
    role: text("role").notNull().default("user"),
    /** Blur nudity in strangers' video and in pictures (issue 12): on unless the user turned it off. */
    blurNudity: boolean("blur_nudity").notNull().default(true),
    /** Set by enough weighted reports or by a moderator: no roulette while it runs. */
    rouletteSuspendedAt: bigint("roulette_suspended_at", { mode: "number" }),
    /** End of a moderator's suspension; null with rouletteSuspendedAt set: until a moderator decides. */
    rouletteSuspendedUntil: bigint("roulette_suspended_until", { mode: "number" }),
    /** The reason a moderator gave (null for the automatic suspension). */
    rouletteSuspensionReason: text("roulette_suspension_reason"),
    /** The optional free-form profile object (src/users/profile.ts bounds it), as JSON text. */
    profile: text("profile"),
    interests: text("interests").notNull().default("[]"),
    languages: text("languages").notNull().default("[]"),
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

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }).notNull(),
    /** The browser's long-lived device cookie when the session began (for device bans). */
    deviceId: text("device_id"),
    /** HMAC of the client address with the server secret, never the address itself (address bans). */
    addressHash: text("address_hash"),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

export const messages = pgTable(
  "messages",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    removedAt: bigint("removed_at", { mode: "number" }),
    replyToId: integer("reply_to_id"),
    editedAt: bigint("edited_at", { mode: "number" }),
    deletedAt: bigint("deleted_at", { mode: "number" }),
    durationMs: integer("duration_ms"),
    /** Strictly increasing across all messages, so time cursors never skip or repeat. */
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    deliveredAt: bigint("delivered_at", { mode: "number" }),
    readAt: bigint("read_at", { mode: "number" }),
  },
  (t) => [
    // (created_at, id): the page cursor on PostgreSQL, where several writers may share a millisecond.
    index("messages_conversation").on(t.pairLo, t.pairHi, t.createdAt, t.id),
    index("messages_unread").on(t.receiverId, t.readAt, t.senderId),
    index("messages_undelivered").on(t.receiverId, t.deliveredAt),
    index("messages_file").on(t.filePath),
    uniqueIndex("messages_client_id")
      .on(t.senderId, t.clientMessageId)
      .where(sql`client_message_id IS NOT NULL`),
  ],
);

/**
 * The chat list, one row per (owner, partner): each side reads its own rows in its own order
 * through one index, and its unread count sits on its row. Kept in step with messages by
 * src/messages/conversations.ts in the transaction that stores or reads them.
 */
export const conversations = pgTable(
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
    lastMessageAt: bigint("last_message_at", { mode: "number" }).notNull(),
    /** Messages from partner to owner not yet read by the owner. */
    unreadCount: integer("unread_count").notNull().default(0),
  },
  // No index on the last message's time: every message moves it, twice, and an indexed column
  // changed makes PostgreSQL write a new index entry in every index of the table; unindexed, the
  // update stays on its page (a HOT update, room kept by the table's fillfactor, set in migration
  // 0001). The chat list reads an owner's rows by the key and sorts them: it lists them all anyway.
  (t) => [primaryKey({ columns: [t.ownerId, t.partnerId] })],
);

/** One person blocking another. Either direction keeps the two apart (API.md "Safety"). */
export const blocks = pgTable(
  "blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked").on(t.blockedId)],
);

/**
 * A Video Roulette stranger blocked by pairing id (issue 18): kept apart from `blocks` so that no
 * named block, unblock, list or presence ever reads it. Its only effect is that the two are never
 * paired again. One row per pairing blocked, so the count never tells two pairings were one person.
 */
export const rouletteBlocks = pgTable(
  "roulette_blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rouletteId: text("roulette_id").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.rouletteId] })],
);

/**
 * The browsers (device cookies) an account signed in from, newest kept: sessions are deleted on
 * logout and expiry, so this is what links a new account to the earlier ones of its browser.
 */
export const userDevices = pgTable(
  "user_devices",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] }), index("user_devices_device").on(t.deviceId, t.lastSeenAt)],
);

/**
 * An account made from a browser that earlier accounts used carries what those accounts are
 * subject to (blocks against them, roulette suspensions), read live: lifting one lifts both.
 */
export const deviceCarriers = pgTable(
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
export const reports = pgTable(
  "reports",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    stillBackend: text("still_backend"),
    /** What this report counts toward automatic suspension (see docs/DECISIONS.md); 0 when the reporter never met the person. */
    weight: doublePrecision("weight").notNull().default(0),
    /** Keyed hash of the network (IPv4 address or IPv6 /64) the report came from, never the address: one vote per network. */
    reporterAddressHash: text("reporter_address_hash"),
    /** The device (`did` cookie, else the session's) the report came from: one vote per device. */
    reporterDeviceId: text("reporter_device_id"),
    /** open, dismissed or actioned. */
    status: text("status").notNull().default("open"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    /** When a moderator first acted on it (for the median time to action). */
    firstActionAt: bigint("first_action_at", { mode: "number" }),
    closedAt: bigint("closed_at", { mode: "number" }),
    closedBy: integer("closed_by").references(() => users.id, { onDelete: "set null" }),
    /** When the retention sweep deleted its evidence, transcript and still. */
    purgedAt: bigint("purged_at", { mode: "number" }),
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
export const callMeetings = pgTable(
  "call_meetings",
  {
    userLo: integer("user_lo")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userHi: integer("user_hi")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    answeredAt: bigint("answered_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userLo, t.userHi] }), index("call_meetings_answered").on(t.answeredAt)],
);

/**
 * Roulette pairings that can still be reported (src/roulette/persist.ts): the copy on disk of the
 * in-memory sessions, written every second and at shutdown so that a restart does not end the
 * 10 minutes in which a partner can be reported or blocked. A row goes when memory forgets its
 * session. No foreign keys: users are never deleted, and a batch must never fail on one row.
 */
export const rouletteSessions = pgTable("roulette_sessions", {
  /**
   * The row's own key, in the order rows are written: new rows go to the end of the table and old
   * ones leave from its start, so a pass rewrites few pages (random pairing ids as the key touched
   * pages all over the table and its index). The store keeps it on the session; nothing looks a
   * row up by pairing id.
   */
  row: integer("row").primaryKey().generatedByDefaultAsIdentity(),
  /** The opaque pairing id the partners know each other by. */
  id: text("id").notNull(),
  userA: integer("user_a").notNull(),
  userB: integer("user_b").notNull(),
  startedAt: bigint("started_at", { mode: "number" }).notNull(),
  /** Null while the pairing ran when last written; start-up ends those at the restart. */
  endedAt: bigint("ended_at", { mode: "number" }),
  /** JSON array of the text chat's lines, {senderId, text, at}, newest last. */
  lines: text("lines").notNull().default("[]"),
});

/** Every ban, current and past; users.banned / banned_until mirror the one in force. */
export const bans = pgTable(
  "bans",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Shown to the user (a statement of reasons). */
    reason: text("reason").notNull(),
    /** End of the ban; null: permanent. */
    until: bigint("until", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** The moderator; null when made with scripts/moderate.ts. */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Keyed hash of the address also banned; cleared when the ban ends. */
    addressHash: text("address_hash"),
    liftedAt: bigint("lifted_at", { mode: "number" }),
    liftedBy: integer("lifted_by").references(() => users.id, { onDelete: "set null" }),
    liftReason: text("lift_reason"),
  },
  (t) => [index("bans_user").on(t.userId, t.createdAt), index("bans_address").on(t.addressHash)],
);

/** The devices (long-lived cookie ids) a ban also covers: no new account from them while it runs. */
export const banDevices = pgTable(
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
export const appeals = pgTable(
  "appeals",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    decidedAt: bigint("decided_at", { mode: "number" }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("appeals_ban").on(t.banId), index("appeals_status").on(t.status, t.createdAt)],
);

/** A moderator's warning; the user must acknowledge it. */
export const warnings = pgTable(
  "warnings",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    acknowledgedAt: bigint("acknowledged_at", { mode: "number" }),
  },
  (t) => [index("warnings_user").on(t.userId, t.acknowledgedAt)],
);

/** Append-only: who did what to whom, when and why. Nothing updates or deletes these rows. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    at: bigint("at", { mode: "number" }).notNull(),
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

export const messageReactions = pgTable(
  "message_reactions",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    emoji: text("emoji").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

export const interestTags = pgTable(
  "interest_tags",
  {
    tag: text("tag").primaryKey(),
    uses: integer("uses").notNull(),
  },
  (t) => [index("interest_tags_uses").on(t.uses)],
);

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    previews: boolean("previews").notNull().default(false),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
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
