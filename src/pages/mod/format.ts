// How the console writes times, durations and report fields. Times are shown in UTC with the
// zone named, so two moderators in different countries read the same thing.
import type { ReportReason } from "../../reports/model.ts";

const reasonLabels: Record<ReportReason, string> = {
  underage: "Appears to be under 18",
  sexual_content: "Sexual content",
  harassment: "Harassment",
  spam: "Spam",
  violence: "Violence",
  other: "Other",
};

export const reasonLabel = (reason: string): string => (reason in reasonLabels ? reasonLabels[reason as ReportReason] : reason);

const contextLabels: Record<string, string> = {
  chat: "Chat",
  message: "A message",
  call: "A call",
  roulette: "Video Roulette",
  profile: "Profile",
};

export const contextLabel = (context: string): string => contextLabels[context] ?? context;

const backendLabels: Record<string, string> = {
  "wasm-simd": "WebAssembly with SIMD",
  wasm: "WebAssembly without SIMD",
  webgl: "WebGL on the GPU",
  cpu: "JavaScript on the CPU, the slowest",
};

/**
 * What ran the reporter's on-device nudity check when a roulette still was taken (issue 21), so a
 * moderator can tell a slow device from a missed frame. Null: no check ran (the setting off, the
 * checker still loading, or a browser that cannot run it).
 */
export const stillBackendText = (backend: string | null): string =>
  backend === null ? "On-device nudity check: none ran." : `On-device nudity check: ${backendLabels[backend] ?? backend} (${backend}).`;

/** "2026-11-22 10:31 UTC". */
export const dateText = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A rounded duration: "45 s", "12 min", "3 h 5 min", "4 d 2 h". */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** "permanent" or the end date. */
export const banEndText = (until: number | null): string => (until === null ? "permanent" : `until ${dateText(until)}`);
