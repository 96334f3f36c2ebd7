// HTTP client for the contract in API.md: bearer token on every call, errors parsed from
// {error, code, fields} into ApiError.
import { localeTag, t } from "../i18n.ts";
import { detectCountry } from "./country-detect.ts";
import { perf, routeKind } from "./perf.ts";
import type { AllowFrom, ChatUser, Country, Message, OwnUser, PublicUser, UnreadItem, WarningNotice } from "./types.ts";
import type { PeoplePage } from "./user-search.ts";
import type { IceAnswer } from "../calls/ice-source.ts";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    readonly fields: Record<string, string> | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The text to show for a failed call: the server's error, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  fields?: unknown;
}

async function parseError(response: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // Not JSON (a proxy's error page): the status alone has to do.
  }
  const fields =
    body.fields && typeof body.fields === "object" ? Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, String(v)])) : null;
  return new ApiError(
    typeof body.error === "string" ? body.error : t("chat.request_failed", { status: String(response.status) }),
    response.status,
    typeof body.code === "string" ? body.code : null,
    fields,
  );
}

export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
  oldestMessageTime: string | null;
  /** Whether I have written to this person (their pictures are not blurred). */
  contact?: boolean;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * A read refused with 503 and Retry-After (the database briefly away: API.md "Several instances")
 * is asked again after that wait, this many times at most; a write is not (its answer would say
 * whether it was done). A 503 without Retry-After (a balancer's own) is not retried either.
 */
export const UNAVAILABLE_RETRIES = 2;
/** A longer wait is not waited for: the page's next action or reload asks again. */
const RETRY_AFTER_MAX_S = 10;

/** How long to wait before asking again, or null when the answer is not "try again soon". */
function retryAfterMs(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (response.status !== 503 || header === null || header.trim() === "") return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= RETRY_AFTER_MAX_S ? seconds * 1000 : null;
}

export function createApi(token: string, fetchOnce: FetchLike = (input, init) => fetch(input, init)) {
  // Every call is timed per route (lib/perf.ts), failures included: a slow refusal is slow too.
  const fetcher: FetchLike = async (input, init) => {
    const stop = perf.start(routeKind(init?.method ?? "GET", input));
    try {
      return await fetchOnce(input, init);
    } finally {
      stop();
    }
  };

  async function call<T>(method: string, path: string, body?: BodyInit | object): Promise<T> {
    // The page's language, so refusals come back in it even without a `lang` cookie (the account's locale).
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json", "Accept-Language": localeTag() };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const init: RequestInit = { method, headers, body: payload, credentials: "same-origin" };
    let response = await fetcher(path, init);
    for (let retry = 0; method === "GET" && retry < UNAVAILABLE_RETRIES; retry++) {
      const waitMs = retryAfterMs(response);
      if (waitMs === null) break;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      response = await fetcher(path, init);
    }
    if (!response.ok) throw await parseError(response);
    return (await response.json()) as T;
  }

  async function callNoContent(method: string, path: string): Promise<void> {
    const headers = { Authorization: `Bearer ${token}`, "Accept-Language": localeTag() };
    const response = await fetcher(path, { method, headers, credentials: "same-origin" });
    if (!response.ok) throw await parseError(response);
  }

  function upload<T>(path: string, fields: [string, string | Blob][]): Promise<T> {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return call<T>("POST", path, form);
  }

  return {
    me: () => call<{ user: OwnUser }>("GET", "/api/auth/me"),
    logout: () => call<{ success: boolean }>("POST", "/api/auth/logout"),
    /** `query`: see user-search.ts peopleQuery (filters, limit, cursor). */
    users: (query = "limit=50") => call<PeoplePage>("GET", `/api/users?${query}`),
    user: (id: number) => call<{ user: PublicUser }>("GET", `/api/users/${id}`),
    updateProfile: (changes: ProfileChanges) => call<{ user: OwnUser }>("PUT", "/api/users/profile", changes),
    countries: () => call<{ countries: Country[] }>("GET", "/api/geo/countries"),
    interestSuggestions: (prefix: string) =>
      call<{ suggestions: string[] }>("GET", `/api/interests/suggestions?prefix=${encodeURIComponent(prefix)}`).then((a) => a.suggestions),
    /** Fresh ICE settings and TURN credentials, before every call and roulette connection. */
    ice: () => call<IceAnswer>("GET", "/api/ice"),
    /** The detected country, else US, United States (never throws). */
    detectCountry: () => detectCountry((path) => fetcher(path, { credentials: "same-origin" })),
    messages: (contactId: number, before: string | null) =>
      call<MessagePage>(
        "GET",
        `/api/messages/${contactId}?limit=50${before ? `&before=${encodeURIComponent(before)}` : ""}`,
      ),
    chatUsers: () => call<{ users: ChatUser[] }>("GET", "/api/messages/chat-users-with-messages"),
    legacyChatUsers: () => call<{ users: ChatUser[] }>("GET", "/api/messages/chat-users"),
    unreadCount: () => call<{ unread_count: number }>("GET", "/api/messages/unread/count"),
    unreadPerUser: () => call<{ items: UnreadItem[] }>("GET", "/api/messages/unread/per-user"),
    markRead: (senderId: number) =>
      call<{ updatedCount: number; readMessages: { id: number; read_at: string }[] }>(
        "PUT",
        `/api/messages/mark-read/${senderId}`,
        {},
      ),
    uploadFile: (receiverId: number, file: File) =>
      upload<{ message: Message }>("/api/messages/upload", [["file", file], ["receiverId", String(receiverId)]]),
    /** A recording (Opus in WebM or Ogg) as a voice message; the server checks its length against `durationMs`. */
    uploadVoice: (receiverId: number, recording: Blob, durationMs: number) =>
      upload<{ message: Message }>("/api/messages/upload", [
        ["receiverId", String(receiverId)],
        ["kind", "voice"],
        ["duration_ms", String(Math.max(1, Math.round(durationMs)))],
        ["file", new File([recording], recording.type.includes("ogg") ? "voice.ogg" : "voice.webm", { type: recording.type })],
      ]),
    uploadFiles: (receiverId: number, files: File[]) =>
      upload<{ messages: Message[] }>("/api/messages/upload-multiple", [
        ...files.map((f): [string, Blob] => ["files", f]),
        ["receiverId", String(receiverId)],
      ]),
    uploadAvatar: (file: File) => upload<{ avatar_url: string }>("/api/users/avatar/upload", [["avatar", file]]),
    deleteAvatar: () => call<{ success: boolean }>("DELETE", "/api/users/avatar"),
    // Safety (API.md "Safety").
    block: (target: { userId: number } | { rouletteId: string }) =>
      call<{ block: { user: PublicUser | null; created_at: string } }>("POST", "/api/blocks", target),
    unblock: (userId: number) => callNoContent("DELETE", `/api/blocks/${userId}`),
    blocks: () => call<BlockList>("GET", "/api/blocks"),
    /** Multipart when a still of the partner's video goes with it, JSON otherwise. */
    report: (report: ReportInput) => {
      const { evidence, ...fields } = report;
      if (!evidence) return call<{ report: ReportReceipt }>("POST", "/api/reports", fields);
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, String(value));
      form.append("evidence", evidence, "still.jpg");
      return call<{ report: ReportReceipt }>("POST", "/api/reports", form);
    },
    confirmAdult: () => call<{ user: OwnUser }>("POST", "/api/users/confirm-adult", {}),
    setPrivacy: (allowFrom: AllowFrom) => call<{ user: OwnUser }>("PUT", "/api/users/privacy", { allowFrom }),
    pushKey: () => call<{ publicKey: string }>("GET", "/api/push/key"),
    pushDevices: () => call<{ devices: PushDevice[] }>("GET", "/api/push/subscriptions"),
    /** `subscription`: PushSubscription.toJSON(); posting again changes this device's previews choice. */
    pushSubscribe: (subscription: PushSubscriptionJSON, previews: boolean) => call<{ device: PushDevice }>("POST", "/api/push/subscriptions", { ...subscription, previews }),
    pushUnsubscribe: (endpoint: string) => call<{ removed: boolean }>("DELETE", "/api/push/subscriptions", { endpoint }),
    setBlurNudity: (on: boolean) => call<{ user: OwnUser }>("PUT", "/api/users/nudity-blur", { blur_nudity: on }),
    setLocale: (locale: string) => call<{ user: OwnUser }>("PUT", "/api/users/locale", { locale }),
    // Moderation (API.md "Moderation"): the caller's own warnings, shown until acknowledged.
    warnings: () => call<{ warnings: WarningNotice[] }>("GET", "/api/warnings"),
    acknowledgeWarning: (id: number) => callNoContent("POST", `/api/warnings/${id}/acknowledge`),
  };
}

export type Api = ReturnType<typeof createApi>;

/** A device with notifications on (GET /api/push/subscriptions). */
export interface PushDevice {
  endpoint: string;
  previews: boolean;
  created_at: string;
}

export interface ProfileChanges {
  name: string;
  gender?: string;
  age?: number | null;
  country_code?: string | null;
  country_name?: string | null;
  orientation?: string;
  interests?: string[];
  languages?: string[];
}

export type ReportContext = "chat" | "message" | "call" | "roulette" | "profile";
export type ReportReason = "sexual_content" | "underage" | "harassment" | "spam" | "violence" | "other";

export interface ReportInput {
  /** The person reported; for roulette use `rouletteId` instead (the partner is a stranger). */
  reportedUserId?: number;
  rouletteId?: string;
  context: ReportContext;
  reason: ReportReason;
  details?: string;
  messageId?: number;
  /** A still of the partner's video (call and roulette reports), JPEG. */
  evidence?: Blob | null;
  /** The backend the on-device nudity check ran on, kept with the still (issue 21). */
  stillBackend?: "wasm-simd" | "wasm" | "webgl" | "cpu";
}

export interface ReportReceipt {
  id: number;
  status: "open";
  created_at: string;
}

export interface BlockList {
  /** The people the caller blocked, newest first, each with when. */
  users: (PublicUser & { blocked_at: string })[];
  /** Strangers blocked in Video Roulette: never named, so only counted. */
  strangers: number;
}
