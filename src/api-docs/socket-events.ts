// The /ws events for the API document: every name typed against protocol.ts, so an event added,
// renamed or removed there breaks the build here until its line is written.
import type { TSchema } from "@sinclair/typebox";
import { serverEventSchemas } from "../realtime/event-schemas.ts";
import { clientEvents, type ClientEventName, type ServerEventName } from "../realtime/protocol.ts";

const fromClient: Record<ClientEventName, string> = {
  ping: "Every 15 s; answered with pong. A socket silent for 45 s is closed.",
  user_logout: "Leave presence (others get user_offline) while the socket stays open.",
  user_back_online: "Come back into presence after user_logout.",
  presence_watch: "Hear the presence of these people too (at most 200; each call replaces the list). Presence otherwise goes only to people with a conversation.",
  send_message: "Store a text or emoji message (replyToId: a message of this conversation, not deleted), then message_sent to the sender's tabs and new_message to the receiver's. The ack answers {message}; a repeated clientMessageId answers the stored message.",
  edit_message: "Edit an own text message within 15 minutes of sending it; message_edited {messageId, content, edited_at} to both people's sockets. The ack answers the same data.",
  delete_message: "Delete an own message for everyone (its file is removed from disk); message_deleted {messageId, deleted_at} to both. The ack answers the same data.",
  react: "React with one of the seven quick reactions (👍 ❤️ 😃 😢 🙏 👎 😡); one per person per message, the same emoji again removes it; message_reaction {messageId, userId, emoji or null} to both.",
  typing_start: "user_typing {isTyping: true} to the receiver.",
  typing_stop: "user_typing {isTyping: false} to the receiver.",
  messages_read: "Mark the listed messages from senderId read; messages_read_batch to the sender. The ack answers {updatedCount}.",
  call_user: "incoming_call to the receiver, or call_rejected {reason: offline or busy} to the caller.",
  answer_call: "call_answered to the caller.",
  reject_call: "call_rejected {reason: declined} to the caller.",
  end_call: "call_ended to the other party.",
  roulette_search:
    "Join the Video Roulette queue; both get roulette_partner_found when paired. A search that would wait while its client network already has 3 searches waiting, or its device 1, answers rate_limited (ROULETTE_WAITING_PER_ADDRESS, ROULETTE_WAITING_PER_DEVICE).",
  roulette_stop_search: "Leave the queue; a partner gets roulette_partner_disconnected.",
  roulette_next: "End the pair; the partner gets roulette_partner_next.",
  roulette_offer: "Relayed to the current partner only; under ICE_TRANSPORT_POLICY=relay with only `typ relay` candidate lines and no real address (`c=` 0.0.0.0, raddr 0.0.0.0 rport 0).",
  roulette_answer: "Relayed to the current partner only; filtered as roulette_offer under the relay policy.",
  roulette_ice_candidate: "Relayed to the current partner only; under ICE_TRANSPORT_POLICY=relay a candidate that is not `typ relay` is dropped and a relay one's raddr/rport become 0.0.0.0 / 0.",
  roulette_text: "1 to 500 characters after trimming; roulette_text {text, at} to the current partner.",
  roulette_keep_in_touch: "When both partners sent it, each gets roulette_contact with the other's public user.",
};

const fromServer: Record<ServerEventName, string> = {
  pong: "The answer to ping.",
  error: "A frame that asked no ack failed: not JSON, unknown event, invalid data, rate limited.",
  user_online: "Someone's first socket opened (or they came back).",
  user_offline: "Someone's last socket closed (or they logged out).",
  online_count: "How many users are online; at most every 5 s, only when it changed.",
  user_typing: "The sender started or stopped typing.",
  new_user_registered: "Someone joined the site.",
  new_message: "A message for this user was stored.",
  message_sent: "A message this user sent was stored (to every tab of the sender).",
  message_delivered: "A message this user sent reached one of the receiver's sockets.",
  messages_read_batch: "The receiver read messages this user sent.",
  incoming_call: "Someone is calling; answer with answer_call or reject_call.",
  call_answered: "The callee answered; connect over /peerjs to answererPeerId.",
  call_rejected: "The call did not start.",
  call_ended: "The other party ended the call, or nobody answered within 60 s.",
  roulette_partner_found: "Paired with a stranger; exactly one side creates the WebRTC offer.",
  roulette_partner_disconnected: "The partner left, stopped or blocked.",
  roulette_partner_next: "The partner moved on to someone else.",
  roulette_offer: "The partner's WebRTC offer.",
  roulette_answer: "The partner's WebRTC answer.",
  roulette_ice_candidate: "The partner's ICE candidate.",
  roulette_text: "The partner's text message.",
  roulette_contact: "Both partners chose Keep in touch: the other's public user.",
  block_changed: "This user blocked or unblocked someone in another tab.",
  banned: "This account was banned; its sockets close with 4403 next.",
  warning: "A moderator's warning, shown until acknowledged (POST /api/warnings/{id}/acknowledge).",
  message_removed: "A moderator removed a message of this conversation.",
  message_edited: "A text message of this conversation was edited by its sender.",
  message_deleted: "A message of this conversation was deleted for everyone by its sender.",
  message_reaction: "Someone of this conversation reacted to a message (emoji) or took the reaction back (null).",
};

export interface SocketEventDoc {
  summary: string;
  data: TSchema;
}

const listOf = <N extends string>(summaries: Record<N, string>, schemas: Record<N, TSchema>) =>
  Object.fromEntries(
    (Object.keys(summaries) as N[]).map((name): [string, SocketEventDoc] => [name, { summary: summaries[name], data: schemas[name] }]),
  );

/** Client to server and server to client, with the schema of each event's `data`. */
export const socketEvents = {
  path: "/ws",
  clientToServer: listOf(fromClient, clientEvents),
  serverToClient: listOf(fromServer, serverEventSchemas),
};
