// The evidence still of a report, for the console only. It lives under UPLOADS_DIR/evidence (or
// DATA_DIR/evidence without UPLOADS_DIR: src/reports/evidence.ts), which nothing else serves; the answer is never cached and never sniffed as anything but a JPEG.
import type { AppContext } from "../../context.ts";
import { findReport } from "../../moderation/queries/reports.ts";
import { stillFile } from "../../reports/evidence.ts";

/** The still as a response, or null when there is none to show (the caller answers 404). */
export async function stillResponse(ctx: AppContext, reportId: number): Promise<Response | null> {
  const report = await findReport(ctx.db, reportId);
  if (!report?.evidencePath || report.purgedAt !== null) return null;
  // Only the path the reports module writes is ever read (stillFile checks it).
  const file = stillFile(ctx.config, report.evidencePath);
  if (!file) return null;
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
