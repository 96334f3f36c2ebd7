// Reading small multipart bodies whole (report evidence, already capped by its reader; uploads
// stream through receive.ts instead), so repeated fields stay a list, a text field named like a
// file is not JSON-parsed, and a broken body is a 400.
import { validationError } from "../http/errors.ts";

export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw validationError({ body: "Send the file as multipart/form-data" }, "Send the file as multipart/form-data");
  }
  try {
    return await request.formData();
  } catch {
    throw validationError({ body: "The upload could not be read" }, "The upload could not be read (malformed form data)");
  }
}

/** Only real file parts: a text value under a file field is a client mistake. */
export const filesOf = (form: FormData, field: string): File[] =>
  form.getAll(field).filter((value): value is File => typeof value !== "string");

/** A positive whole-number id from a text field (of a FormData or the streamed fields). */
export function idField(fields: { get(name: string): unknown }, field: string): number {
  const raw = fields.get(field);
  if (typeof raw !== "string" || raw.trim() === "") throw validationError({ [field]: `${field} is required` });
  if (!/^[1-9]\d{0,15}$/.test(raw.trim())) throw validationError({ [field]: `${field} must be a user id` });
  return Number(raw.trim());
}
