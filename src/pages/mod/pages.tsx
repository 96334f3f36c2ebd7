// Every console page by its address: one table, used by the GET routes and to show a page again
// with the error when a form on it was refused. A query value that makes no sense falls back to
// the default (a page number of "abc" is page 1), so no address a person can type is an error.
import type { ReactElement } from "react";
import type { AppContext } from "../../context.ts";
import { dashboardStats } from "../../moderation/queries/dashboard.ts";
import { appealList, auditActions, auditPage, userIdOf } from "../../moderation/queries/log.ts";
import { bansOf, findUserRow, personSummary, searchUsers, sessionSummary, warningsOf } from "../../moderation/queries/people.ts";
import { findReport, removableMessages, reportQueue, reportsOf, reportStatuses, type StatusFilter } from "../../moderation/queries/reports.ts";
import { activeBan } from "../../moderation/actions.ts";
import { reportReasons, type ReportReason } from "../../reports/model.ts";
import { positiveId } from "./form.ts";
import { AppealsPage } from "./pages/AppealsPage.tsx";
import { AuditPage } from "./pages/AuditPage.tsx";
import { HomePage } from "./pages/HomePage.tsx";
import { QueuePage } from "./pages/QueuePage.tsx";
import { ReportPage } from "./pages/ReportPage.tsx";
import { UserPage } from "./pages/UserPage.tsx";
import { UsersPage } from "./pages/UsersPage.tsx";
import { parseTranscript } from "./transcript.ts";
import type { ModView } from "./view.ts";

type Builder = (ctx: AppContext, view: ModView, id: number, query: URLSearchParams) => Promise<ReactElement | null>;

const MAX_PAGE = 100_000;
const pageOf = (query: URLSearchParams): number => Math.min(positiveId(query.get("page")) ?? 1, MAX_PAGE);
const textOf = (query: URLSearchParams, name: string): string => (query.get(name) ?? "").trim().slice(0, 100);

const isReason = (value: string): value is ReportReason => (reportReasons as readonly string[]).includes(value);
const isStatus = (value: string): value is StatusFilter => value === "all" || (reportStatuses as readonly string[]).includes(value);

const home: Builder = async (ctx, view) => <HomePage view={view} stats={await dashboardStats(ctx.db, view.now)} />;

const queue: Builder = async (ctx, view, _id, query) => {
  const reason = textOf(query, "reason");
  const status = textOf(query, "status");
  const filter = { reason: isReason(reason) ? reason : null, status: isStatus(status) ? status : "open", page: pageOf(query) } as const;
  return <QueuePage view={view} filter={filter} result={await reportQueue(ctx.db, filter)} />;
};

const report: Builder = async (ctx, view, id) => {
  const row = await findReport(ctx.db, id);
  if (!row) return null;
  const reporter = await findUserRow(ctx.db, row.reporterId);
  const reported = await findUserRow(ctx.db, row.reportedId);
  if (!reporter || !reported) return null;
  const transcript = parseTranscript(row.transcript);
  const lineIds = transcript.flatMap((line) => (line.id === null ? [] : [line.id]));
  const data = {
    report: row,
    reporter: await personSummary(ctx.db, reporter, view.now),
    reported: await personSummary(ctx.db, reported, view.now),
    openReports: await reportsOf(ctx.db, "reported", reported.id, { openOnly: true, limit: 100 }),
    // Only the reported person's own messages: the action is about them.
    removable: await removableMessages(ctx.db, reported.id, row.messageId === null ? lineIds : [row.messageId, ...lineIds]),
    transcript,
  };
  return <ReportPage view={view} data={data} />;
};

const users: Builder = async (ctx, view, _id, query) => {
  const q = textOf(query, "q");
  return <UsersPage view={view} query={q} results={await searchUsers(ctx.db, q)} />;
};

const user: Builder = async (ctx, view, id) => {
  const row = await findUserRow(ctx.db, id);
  if (!row) return null;
  const data = {
    user: row,
    sessions: await sessionSummary(ctx.db, row.id),
    activeBan: await activeBan(ctx.db, row.id, view.now),
    bans: await bansOf(ctx.db, row.id),
    warnings: await warningsOf(ctx.db, row.id),
    received: await reportsOf(ctx.db, "reported", row.id),
    made: await reportsOf(ctx.db, "reporter", row.id),
    openReports: await reportsOf(ctx.db, "reported", row.id, { openOnly: true, limit: 100 }),
  };
  return <UserPage view={view} data={data} />;
};

const appeals: Builder = async (ctx, view, _id, query) => <AppealsPage view={view} result={await appealList(ctx.db, pageOf(query))} />;

const audit: Builder = async (ctx, view, _id, query) => {
  const q = { action: textOf(query, "action"), actor: textOf(query, "actor"), target: textOf(query, "target") };
  // An actor or target that names nobody matches nothing (id 0), rather than everything.
  const filter = {
    action: q.action || null,
    actorId: q.actor ? ((await userIdOf(ctx.db, q.actor)) ?? 0) : null,
    targetId: q.target ? ((await userIdOf(ctx.db, q.target)) ?? 0) : null,
    page: pageOf(query),
  };
  return <AuditPage view={view} query={q} actions={await auditActions(ctx.db)} result={await auditPage(ctx.db, filter)} />;
};

const table: [RegExp, Builder][] = [
  [/^\/mod\/?$/, home],
  [/^\/mod\/reports\/?$/, queue],
  [/^\/mod\/reports\/(\d{1,15})$/, report],
  [/^\/mod\/users\/?$/, users],
  [/^\/mod\/users\/(\d{1,15})$/, user],
  [/^\/mod\/appeals\/?$/, appeals],
  [/^\/mod\/audit\/?$/, audit],
];

/** The page at this address, or null when there is none (the caller answers 404). */
export async function modPage(ctx: AppContext, view: ModView, url: URL): Promise<ReactElement | null> {
  for (const [pattern, build] of table) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const id = match[1] === undefined ? 0 : positiveId(match[1]);
    if (id === null) return null;
    return build(ctx, view, id, url.searchParams);
  }
  return null;
}
