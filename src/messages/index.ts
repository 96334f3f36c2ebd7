// HTTP: a conversation page by page, the chat list, unread counters and marking a chat read.
// File uploads live in src/uploads; sending text goes over the socket.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { ref } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { notFound, validationError } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { iso } from "../time.ts";
import { announceRead } from "./notify.ts";
import { cursorOf, readConversation, type Cursor } from "./history.ts";
import { chatUsers, type ChatView, markRead, requireContact, unreadCount, unreadPerUser } from "./service.ts";

export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

const limitError = "limit must be a positive whole number";
const LIMIT = /^[1-9][0-9]{0,8}$/;

// limit stays a string here: converting first would quietly turn "2.5" into 2.
const pageQuery = t.Object({
  limit: t.Optional(t.String({ pattern: LIMIT.source, error: limitError })),
  before: t.Optional(t.String({ minLength: 1, maxLength: 40, error: "before must be an ISO time such as 2026-11-22T10:31:00.123Z" })),
});

/**
 * The usual query (nothing, or well-formed strings) is read as it is, the checks pageQuery makes;
 * anything else goes through validate() (TypeBox clone, convert and error walk) for its messages.
 */
function pageOf(query: Record<string, unknown>): { limit?: string; before?: string } {
  const { limit, before } = query;
  const limitOk = limit === undefined || (typeof limit === "string" && LIMIT.test(limit));
  const beforeOk = before === undefined || (typeof before === "string" && before.length >= 1 && before.length <= 40);
  return limitOk && beforeOk ? { limit, before } : validate(pageQuery, query, { convert: true });
}

/** Path ids are checked here so "abc" or "1e3" is a 400, not a 404 or a lookup of NaN. */
function otherUserId(field: string, raw: string, selfId: number): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw validationError({ [field]: "A user id is a positive whole number" });
  const id = Number(raw);
  if (id === selfId) throw validationError({ [field]: "That is your own id; choose the other person" });
  return id;
}

/**
 * The cursor is the previous page's oldestMessageTime. Only a full date-time with a zone is
 * accepted: without one, Date.parse would read it in the server's local time.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseBefore(raw: string | undefined): Cursor | undefined {
  if (raw === undefined) return undefined;
  const ms = ISO_TIME.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw validationError({ before: "before must be an ISO time such as 2026-11-22T10:31:00.123Z" });
  return cursorOf(raw, ms);
}

const time = t.String({ format: "date-time" });
const chatUser = t.Intersect([ref.PublicUser, t.Object({ unread_count: t.Integer(), is_contact: t.Boolean() })]);
const chatUserWithLatest = t.Intersect([chatUser, t.Object({ latest_message: t.Union([ref.Message, t.Null()]) })]);

export function messageRoutes(ctx: AppContext) {
  const viewOf = (userId: number): ChatView => ({
    hidden: ctx.blocks.hiddenFrom(userId),
    hasWritten: (otherId) => ctx.contacts.hasWritten(userId, otherId),
  });
  return (
    new Elysia()
      .use(authGuard(ctx))
      // Static paths first: they must never be read as a contact id (tests/messages pins this).
      .get("/api/messages/chat-users-with-messages", async ({ user }) => ({ users: await chatUsers(ctx.db, user, viewOf(user.id)) }), {
        detail: operation({
          tag: "Messages",
          summary: "My conversations, newest first, with the latest message and unread count",
          ok: { description: "One entry per person", schema: t.Object({ users: t.Array(chatUserWithLatest) }) },
        }),
      })
      .get("/api/messages/chat-users", async ({ user }) => ({
        users: (await chatUsers(ctx.db, user, viewOf(user.id))).map(({ latest_message: _, ...rest }) => rest),
      }), {
        detail: operation({
          tag: "Messages",
          summary: "Legacy: my conversations without the latest message",
          ok: { description: "One entry per person", schema: t.Object({ users: t.Array(chatUser) }) },
        }),
      })
      .get("/api/messages/unread/count", async ({ user }) => ({ unread_count: await unreadCount(ctx.db, user.id, ctx.blocks.hiddenFrom(user.id)) }), {
        detail: operation({ tag: "Messages", summary: "How many messages to me are unread", ok: { description: "The count", schema: t.Object({ unread_count: t.Integer() }) } }),
      })
      .get("/api/messages/unread/per-user", async ({ user }) => ({ items: await unreadPerUser(ctx.db, user.id, ctx.blocks.hiddenFrom(user.id)) }), {
        detail: operation({
          tag: "Messages",
          summary: "Unread messages to me, per sender",
          ok: {
            description: "One item per sender with unread messages",
            schema: t.Object({ items: t.Array(t.Object({ sender_id: t.Integer(), sender_name: t.String(), unread_count: t.Integer() })) }),
          },
        }),
      })
      .put(
        "/api/messages/mark-read/:senderId",
        async ({ params, user }) => {
          const senderId = otherUserId("senderId", params.senderId, user.id);
          await requireContact(ctx.db, user.id, senderId);
          const readAt = Date.now();
          const rows = await markRead(ctx.db, user.id, senderId, readAt);
          announceRead(ctx, user.id, senderId, rows, readAt);
          return { updatedCount: rows.length, readMessages: rows.map((row) => ({ id: row.id, read_at: iso(readAt) })) };
        },
        // The client sends no body; whatever it sends (even "{" with a JSON type) is ignored.
        {
          parse: "none",
          detail: operation({
            tag: "Messages",
            summary: "Mark every message from this sender to me read",
            description: "The sender hears messages_read_batch (not across a block).",
            path: { senderId: "The other person's id" },
            ok: {
              description: "What changed",
              schema: t.Object({ updatedCount: t.Integer(), readMessages: t.Array(t.Object({ id: t.Integer(), read_at: time })) }),
            },
            errors: [400, 404],
          }),
        },
      )
      .get("/api/messages/:contactId", async ({ params, query, user }) => {
        const contactId = otherUserId("contactId", params.contactId, user.id);
        const page = pageOf(query);
        // "At most 100": a larger limit is capped, as the contract describes it.
        const limit = page.limit === undefined ? PAGE_SIZE : Math.min(Number(page.limit), MAX_PAGE_SIZE);
        const before = parseBefore(page.before);
        const read = await readConversation(ctx.db, user, contactId, limit, before);
        if (read === undefined) throw notFound("That user does not exist");
        // Past messages stay readable after a block. `contact`: the caller has written to this
        // person, so the client shows their pictures unblurred.
        return {
          ...read,
          contact: ctx.contacts.hasWritten(user.id, contactId),
        };
      }, {
        detail: operation({
          tag: "Messages",
          summary: "One page of a conversation, oldest first",
          description: "The next page: before = this page's oldestMessageTime. Paging never skips or repeats a message.",
          path: { contactId: "The other person's id" },
          query: pageQuery,
          ok: {
            description: "The page",
            schema: t.Object({ messages: t.Array(ref.Message), hasMore: t.Boolean(), oldestMessageTime: t.Union([time, t.Null()]), contact: t.Boolean() }),
          },
          errors: [400, 404],
        }),
      })
  );
}
