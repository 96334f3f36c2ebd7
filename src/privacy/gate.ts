// May one person reach another? Blocks (either direction) and the receiver's privacy setting,
// answered from memory so the message, upload, typing and call paths never add a query.
import type { AppContext } from "../context.ts";
import { AppError } from "../http/errors.ts";

export type Refusal = "blocked" | "not_accepting";

export function refusal(ctx: Pick<AppContext, "blocks" | "contacts">, senderId: number, receiverId: number): Refusal | null {
  if (ctx.blocks.between(senderId, receiverId)) return "blocked";
  if (!ctx.contacts.accepts(receiverId, senderId)) return "not_accepting";
  return null;
}

/** For messages and files: a refusal is said plainly (API.md "Safety"). */
export function admitMessage(ctx: Pick<AppContext, "blocks" | "contacts">, senderId: number, receiverId: number): void {
  const reason = refusal(ctx, senderId, receiverId);
  if (reason === "blocked") throw new AppError(403, "blocked", "You can't message this person");
  if (reason === "not_accepting") {
    throw new AppError(403, "not_accepting", "This person only accepts messages from people they have written to");
  }
}
