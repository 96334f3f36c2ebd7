// Reads a report request, JSON or multipart, with the body's size capped before anything is
// parsed: a report is small text plus at most one still.
import { AppError, validationError } from "../http/errors.ts";
import { parseCountedJson, readJsonText } from "../http/body/json-text.ts";
import { readCappedBytes } from "../http/body/read.ts";
import { filesOf, readForm } from "../uploads/multipart.ts";
import { MAX_EVIDENCE_BYTES } from "./evidence.ts";

const MAX_JSON_BYTES = 64 * 1024;
/** One still plus the text fields and multipart framing: the most a report request may carry. */
export const MAX_REPORT_BYTES = MAX_EVIDENCE_BYTES + 64 * 1024;

const tooLarge = () => new AppError(413, "too_large", "The report is too large (the still may be at most 2 MB)");

export interface ReportRequest {
  /** Fields as sent, checked later against reportBody. */
  fields: unknown;
  evidence: File | undefined;
}

export async function readReportRequest(request: Request): Promise<ReportRequest> {
  const type = request.headers.get("content-type") ?? "";
  if (/^application\/json\s*(;|$)/i.test(type)) {
    return { fields: parseCountedJson(await readJsonText(request, MAX_JSON_BYTES, tooLarge)), evidence: undefined };
  }
  if (/^multipart\/form-data/i.test(type)) {
    const body = await readCappedBytes(request, MAX_REPORT_BYTES, { tooBig: tooLarge });
    const form = await readForm(new Request("http://localhost/", { method: "POST", headers: { "content-type": type }, body }));
    const fields: Record<string, string> = {};
    // An empty text field is an absent one, as a browser form sends it.
    for (const [name, value] of form) if (typeof value === "string" && value !== "" && name !== "evidence") fields[name] = value;
    const files = filesOf(form, "evidence");
    if (files.length > 1) throw validationError({ evidence: "Send one still at most" });
    return { fields, evidence: files[0] };
  }
  throw new AppError(415, "unsupported_type", "Send the report as JSON, or as multipart/form-data with an evidence image");
}
