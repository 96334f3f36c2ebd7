// HTTP: POST /api/reports (API.md "Safety"). JSON, or multipart when a still goes with it.
import { Elysia } from "elysia";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validate } from "../http/validate.ts";
import { reportBody } from "./model.ts";
import { readReportRequest } from "./request.ts";
import { fileReport, loadReportedPairs } from "./service.ts";

export function reportRoutes(ctx: AppContext) {
  // The app is built once per context: this is where reported pairs enter the roulette queue.
  loadReportedPairs(ctx);
  return new Elysia().use(authGuard(ctx)).post(
    "/api/reports",
    async ({ request, user, set }) => {
      const { fields, evidence } = await readReportRequest(request);
      const body = validate(reportBody, fields, { convert: true });
      const filed = await fileReport(ctx, user, body, evidence, Date.now());
      set.status = filed.merged ? 200 : 201;
      return { report: filed.report };
    },
    { parse: "none" },
  );
}
