// Small builders for the chat island's tests.
import type { ChatUser, Message, OwnUser } from "../../islands/lib/types.ts";

let nextId = 1000;

export function user(overrides: Partial<ChatUser> = {}): ChatUser {
  const id = overrides.id ?? nextId++;
  return {
    id,
    username: `user${id}`,
    name: `User ${id}`,
    gender: "female",
    orientation: "heterosexual",
    age: 30,
    country_code: "DE",
    country_name: "Germany",
    avatar_url: null,
    is_online: false,
    last_seen: "2026-11-20T10:00:00.000Z",
    created_at: "2026-01-01T10:00:00.000Z",
    is_guest: false,
    profile: null,
    interests: [],
    languages: [],
    ...overrides,
  };
}

export function me(overrides: Partial<OwnUser> = {}): OwnUser {
  return {
    ...user({ id: 1, name: "Me", username: "me", is_online: true }),
    email: "me@example.com",
    adult_confirmed_at: "2026-01-01T10:00:00.000Z",
    allow_from: "everyone",
    role: "user",
    blur_nudity: true,
    locale: null,
    ...overrides,
  };
}

export function message(overrides: Partial<Message> = {}): Message {
  const id = overrides.id ?? nextId++;
  const sender = overrides.sender_id ?? 2;
  const receiver = overrides.receiver_id ?? 1;
  return {
    id,
    sender_id: 2,
    receiver_id: 1,
    sender_name: "Bob",
    content: `hello ${id}`,
    message_type: "text",
    file_name: null,
    file_path: null,
    file_size: null,
    group_id: null,
    client_message_id: null,
    clientMessageId: null,
    created_at: "2026-11-22T10:00:00.000Z",
    is_delivered: false,
    delivered_at: null,
    is_read: false,
    read_at: null,
    is_removed: false,
    reply_to: null,
    edited_at: null,
    deleted_at: null,
    reactions: [],
    duration_ms: null,
    // Seen by me (id 1): the other person.
    partner_id: sender === 1 ? receiver : sender,
    ...overrides,
  };
}
