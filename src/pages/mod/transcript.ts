// The snapshot kept with a report (reports.transcript) read back for display. It is JSON written
// by the reports module: chat lines carry `content`, roulette lines `text`. Anything else in it
// is skipped rather than trusted.
export interface TranscriptLine {
  id: number | null;
  senderId: number;
  text: string;
  at: string;
  fileName: string | null;
  /** When the sender had edited it (the text is the edited one as it was when reported). */
  editedAt: string | null;
  /** When the sender had deleted it for everyone, before the report. */
  deletedAt: string | null;
}

const MAX_LINES = 500;

export function parseTranscript(json: string | null): TranscriptLine[] {
  if (!json) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const lines: TranscriptLine[] = [];
  for (const item of value.slice(0, MAX_LINES)) {
    if (typeof item !== "object" || item === null) continue;
    const entry = item as Record<string, unknown>;
    const text = typeof entry.content === "string" ? entry.content : typeof entry.text === "string" ? entry.text : null;
    const at = typeof entry.created_at === "string" ? entry.created_at : typeof entry.at === "string" ? entry.at : "";
    if (typeof entry.sender_id !== "number" || text === null) continue;
    lines.push({
      id: typeof entry.id === "number" ? entry.id : null,
      senderId: entry.sender_id,
      text,
      at,
      fileName: typeof entry.file_name === "string" ? entry.file_name : null,
      editedAt: typeof entry.edited_at === "string" ? entry.edited_at : null,
      deletedAt: typeof entry.deleted_at === "string" ? entry.deleted_at : null,
    });
  }
  return lines;
}
