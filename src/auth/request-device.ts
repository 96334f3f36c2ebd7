// The device a signed-in request comes from, for counts that must hold per person rather than per
// account (roulette places, report weights): the browser's `did` cookie, or, when the request
// carries none (a script need not send it), the device its session began on (sessions.device_id).
import { eq } from "drizzle-orm";
import { sessions } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { cookieValue } from "../http/request.ts";
import { DEVICE_COOKIE, DEVICE_ID } from "./device.ts";

export async function requestDevice(db: Db, request: Request, sessionId: string): Promise<string | null> {
  const given = cookieValue(request.headers.get("cookie"), DEVICE_COOKIE);
  if (given !== null && DEVICE_ID.test(given)) return given;
  const [row] = await db.select({ deviceId: sessions.deviceId }).from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  return row?.deviceId ?? null;
}
