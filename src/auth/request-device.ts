// The device a signed-in request comes from, for counts that must hold per person rather than per
// account (roulette places, report weights): the browser's `did` cookie, or, when the request
// carries none (a script need not send it), the device its session began on (sessions.device_id).
import { eq } from "drizzle-orm";
import { sessions } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { cookieValue } from "../http/request.ts";
import { DEVICE_COOKIE, DEVICE_ID } from "./device.ts";

/** `session`: its id, or the session as read (auth/sessions.ts), which carries its device: no query then. */
export async function requestDevice(db: Db, request: Request, session: string | { id: string; deviceId: string | null }): Promise<string | null> {
  const given = cookieValue(request.headers.get("cookie"), DEVICE_COOKIE);
  if (given !== null && DEVICE_ID.test(given)) return given;
  if (typeof session !== "string") return session.deviceId;
  const sessionId = session;
  const [row] = await db.select({ deviceId: sessions.deviceId }).from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  return row?.deviceId ?? null;
}
