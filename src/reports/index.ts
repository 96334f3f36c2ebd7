// HTTP: POST /api/reports (API.md "Safety"). JSON, or multipart when a still goes with it.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { operation } from "../api-docs/operation.ts";
import { addressHash } from "../auth/device.ts";
import { authGuard } from "../auth/guard.ts";
import { requestDevice } from "../auth/request-device.ts";
import { networkOf } from "../http/network.ts";
import { clientAddress } from "../http/request.ts";
import type { AppContext } from "../context.ts";
import { validate } from "../http/validate.ts";
import { reportBody } from "./model.ts";
import { readReportRequest } from "./request.ts";
import { fileReport, type ReportOrigin } from "./service.ts";

const reportAnswer = t.Object({ report: t.Object({ id: t.Integer(), status: t.String(), created_at: t.String({ format: "date-time" }) }) });

type Server = { requestIP(request: Request): { address: string } | null } | null;

/** Only the keyed hash of the reporter's network is kept, never the address (auth/device.ts). */
async function reportOrigin(ctx: AppContext, request: Request, server: Server, sessionId: string): Promise<ReportOrigin> {
  const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
  return { addressHash: addressHash(ctx.config.secret, networkOf(address) ?? ""), deviceId: await requestDevice(ctx.db, request, sessionId) };
}

export function reportRoutes(ctx: AppContext) {
  return new Elysia().use(authGuard(ctx)).post(
    "/api/reports",
    async ({ request, user, session, server, set }) => {
      const { fields, evidence } = await readReportRequest(request);
      const body = validate(reportBody, fields, { convert: true });
      const filed = await fileReport(ctx, user, body, evidence, await reportOrigin(ctx, request, server, session.id), Date.now());
      set.status = filed.merged ? 200 : 201;
      return { report: filed.report };
    },
    {
      parse: "none",
      detail: operation({
        tag: "Safety",
        summary: "Report a person or a Video Roulette stranger",
        description:
          "JSON, or multipart with the same fields plus evidence (an image, re-encoded without metadata). " +
          "A report of the same person in the same context within 10 minutes merges into the first (200).",
        json: reportBody,
        multipart: t.Composite([reportBody, t.Object({ evidence: t.Optional(t.String({ format: "binary" })) })]),
        ok: { status: 201, description: "Received", schema: reportAnswer },
        errors: [400, 404, 413, 415, 429],
      }),
    },
  );
}
