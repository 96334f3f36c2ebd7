// The push_subscriptions table (issue 26), every query in one place so another storage engine
// ports one file. A subscription belongs to the session it was made in (a logout or an ended
// session deletes it by the foreign key) and is unique by endpoint.
import { and, count, eq, ne } from "drizzle-orm";
import { pushSubscriptions, type PushSubscriptionRow } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import { AppError } from "../http/errors.ts";

/** Devices one person may have notifications on at once. */
export const MAX_DEVICES = 10;

export interface NewSubscription {
  userId: number;
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  previews: boolean;
}

/**
 * Adds this browser's subscription, or updates it (new keys, the previews choice, or another
 * account signed in on it, which takes it over); the count and the write are one transaction.
 * Past MAX_DEVICES other devices: 409.
 */
export async function saveSubscription(db: Db, sub: NewSubscription, now: number): Promise<PushSubscriptionRow> {
  return transaction(db, async (tx) => {
    const [others] = await tx
      .select({ n: count() })
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, sub.userId), ne(pushSubscriptions.endpoint, sub.endpoint)));
    if ((others?.n ?? 0) >= MAX_DEVICES) {
      throw new AppError(409, "quota_exceeded", `Notifications are already on for ${MAX_DEVICES} devices. Turn them off on one of them first.`);
    }
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ ...sub, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: sub.userId, sessionId: sub.sessionId, p256dh: sub.p256dh, auth: sub.auth, previews: sub.previews },
      })
      .returning();
    return row!;
  });
}

/** Removes the person's own subscription for `endpoint`; false when they had none there. */
export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const removed = await transaction(db, (tx) => tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id }));
  return removed.length > 0;
}

/** A push service said the subscription is gone (404/410). */
export async function dropSubscription(db: Db, id: number): Promise<void> {
  await transaction(db, (tx) => tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id)));
}

export async function subscriptionsOf(db: Db, userId: number): Promise<PushSubscriptionRow[]> {
  return await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}
