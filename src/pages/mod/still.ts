// The evidence still of a report, for the console only. It lives under DATA_DIR/evidence, which
// nothing else serves; the answer is never cached and never sniffed as anything but a JPEG.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AppContext } from "../../context.ts";
import { findReport } from "../../moderation/queries/reports.ts";

/** The path the reports module writes; anything else in the column is not served. */
const STILL_PATH = /^evidence\/[0-9a-f]{32}\.jpg$/;

/** The still as a response, or null when there is none to show (the caller answers 404). */
export async function stillResponse(ctx: AppContext, reportId: number): Promise<Response | null> {
  const report = await findReport(ctx.db, reportId);
  if (!report?.evidencePath || report.purgedAt !== null || !STILL_PATH.test(report.evidencePath)) return null;
  const file = join(ctx.config.dataDir, report.evidencePath);
  if (!existsSync(file)) return null;
  return new Response(Bun.file(file), {
    headers: {
      "content-type": "image/jpeg",
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-origin",
    },
  });
}
