// A route's `detail` for the API document, made from the same TypeBox schemas the route checks
// with validate(): routes keep validating by hand (the contract's error shape), and the document
// cannot describe a body the route does not check.
import { Type as t, type TObject, type TSchema } from "@sinclair/typebox";
import type { DocumentDecoration } from "elysia";

export const apiTags = {
  Auth: "Sign-up, sign-in, the guest entry and the session",
  Users: "People, the own profile, avatars and the 18+ confirmation",
  Messages: "Conversations, the chat list, unread counters and files",
  Safety: "Blocks, privacy, reports and a moderator's warnings",
  Geo: "The visitor's country and the country list",
  Calls: "What browsers need to connect calls and Video Roulette",
  Notifications: "Web Push: notifications on a device with no tab open",
  Health: "For load balancers",
} as const;

export type ApiTag = keyof typeof apiTags;

/** Every non-2xx answer (API.md "General"); `banned` adds until, reason and appeal_url. */
export const errorSchema = t.Object({
  error: t.String({ description: "A sentence a person can read" }),
  code: t.String({ description: "snake_case, e.g. validation, invalid_credentials, rate_limited, banned" }),
  fields: t.Optional(t.Record(t.String(), t.String(), { description: "One message per invalid field" })),
  until: t.Optional(t.Union([t.String({ format: "date-time" }), t.Null()])),
  reason: t.Optional(t.String()),
  appeal_url: t.Optional(t.String()),
});

const statusText: Record<number, string> = {
  400: "Invalid input (`validation`, with `fields`), or malformed JSON",
  401: "No valid session, or wrong credentials",
  403: "Forbidden: banned, blocked, not accepting, suspended, or another site's Origin",
  404: "Unknown, or not visible to the caller",
  409: "Conflict: username_taken or email_taken",
  413: "Too large",
  415: "Unsupported content type",
  429: "Rate limited; see Retry-After",
};

export interface OperationSpec {
  tag: ApiTag;
  summary: string;
  description?: string;
  /** Answers without a bearer token (sign-in, guest entry, geo, health). */
  public?: true;
  /** The schema the route's validate() checks the JSON body with. */
  json?: TObject;
  /** Multipart fields; the route reads them by hand and enforces the limits in the description. */
  multipart?: TObject;
  /** The schema the route's validate() checks the query string with. */
  query?: TObject;
  /** Path parameters by name, with what they hold. */
  path?: Record<string, string>;
  ok: { status?: number; description: string; schema?: TSchema };
  /** Statuses past 2xx worth a reader's attention; 401 is added for signed-in routes. */
  errors?: number[];
}

const jsonContent = (schema: TSchema) => ({ "application/json": { schema } });

function parameters(spec: OperationSpec) {
  const inPath = Object.entries(spec.path ?? {}).map(([name, description]) => ({
    name,
    in: "path" as const,
    required: true,
    description,
    schema: { type: "string" as const },
  }));
  const required = new Set(spec.query?.required ?? []);
  const inQuery = Object.entries(spec.query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query" as const,
    required: required.has(name),
    schema,
  }));
  return [...inPath, ...inQuery];
}

function requestBody(spec: OperationSpec) {
  if (!spec.json && !spec.multipart) return undefined;
  return {
    required: true,
    content: {
      ...(spec.json ? jsonContent(spec.json) : {}),
      ...(spec.multipart ? { "multipart/form-data": { schema: spec.multipart } } : {}),
    },
  };
}

export function operation(spec: OperationSpec): DocumentDecoration {
  const status = spec.ok.status ?? 200;
  const errors = new Set([...(spec.errors ?? []), ...(spec.public ? [] : [401])]);
  const responses: Record<string, { description: string; content?: ReturnType<typeof jsonContent> }> = {
    [status]: { description: spec.ok.description, ...(spec.ok.schema ? { content: jsonContent(spec.ok.schema) } : {}) },
  };
  for (const code of [...errors].sort()) {
    responses[code] = { description: statusText[code] ?? "Refused", content: jsonContent(t.Ref("#/components/schemas/Error")) };
  }
  const params = parameters(spec);
  const body = requestBody(spec);
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: spec.public ? [] : [{ bearer: [] }],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}
