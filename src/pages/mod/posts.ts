// What each console form does: its address, the fields it reads, the action it calls
// (src/moderation/actions.ts, which checks the actor, validates, writes the audit row and closes
// the ticked reports) and the one line the moderator reads afterwards.
import type { AppContext } from "../../context.ts";
import { validationError } from "../../http/errors.ts";
import {
  banUser,
  decideAppeal,
  deleteReport,
  dismissReports,
  endSessions,
  liftRouletteSuspension,
  removeAvatar,
  removeMessage,
  setRole,
  suspendRoulette,
  unbanUser,
  warnUser,
  type Actor,
  type BanDays,
  type Role,
} from "../../moderation/actions.ts";
import { findUserRow } from "../../moderation/queries/people.ts";
import { field, idsOf } from "./form.ts";

export interface Posted {
  ctx: AppContext;
  actor: Actor;
  /** The number in the address (a user, message, report or appeal id); 0 when there is none. */
  id: number;
  form: URLSearchParams;
}

export interface PostAction {
  pattern: RegExp;
  run(post: Posted): Promise<string>;
  /** Where to go afterwards when the form names no page. */
  home(id: number): string;
}

const nameOf = async (ctx: AppContext, userId: number): Promise<string> => (await findUserRow(ctx.db, userId))?.username ?? `user #${userId}`;

const closed = (ids: number[]): string => (ids.length === 0 ? "" : ` and closed ${ids.length} ${ids.length === 1 ? "report" : "reports"}`);

const banDays: Record<string, BanDays> = { "1": 1, "7": 7, "30": 30, permanent: null };

function banDaysOf(form: URLSearchParams): BanDays {
  const value = field(form, "ban_days");
  const days = banDays[value];
  if (days === undefined) throw validationError({ days: "Choose how long the ban lasts: 1, 7 or 30 days, or permanent" });
  return days;
}

function hoursOf(form: URLSearchParams): number | null {
  const value = field(form, "suspend_hours");
  if (value === "") return null;
  // Out of range values go to the action, which says what the range is.
  if (!/^\d{1,6}$/.test(value)) throw validationError({ hours: "Give the hours as a whole number, or leave the field empty" });
  return Number(value);
}

const roles: readonly Role[] = ["user", "moderator", "admin"];

function roleOf(form: URLSearchParams): Role {
  const value = field(form, "role");
  const role = roles.find((r) => r === value);
  if (!role) throw validationError({ role: "A role is user, moderator or admin" });
  return role;
}

const userHome = (id: number) => `/mod/users/${id}`;

export const postActions: PostAction[] = [
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/warn$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      const reports = idsOf(form, "report");
      await warnUser(ctx, actor, id, field(form, "warn_reason"), reports);
      return `Warned ${await nameOf(ctx, id)}${closed(reports)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/ban$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      const reports = idsOf(form, "report");
      const days = banDaysOf(form);
      const banAddress = field(form, "ban_address") === "on";
      const ban = await banUser(ctx, actor, id, { days, reason: field(form, "ban_reason"), banAddress }, reports);
      const length = days === null ? "permanently" : `for ${days} ${days === 1 ? "day" : "days"}`;
      // The address is known only from a session that recorded one; say so rather than imply it.
      const address = ban.addressHash ? ", with the address" : banAddress ? " (no address on record, so none was banned)" : "";
      return `Banned ${await nameOf(ctx, id)} ${length}${address}${closed(reports)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/unban$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      await unbanUser(ctx, actor, id, field(form, "reason"));
      return `Lifted the ban on ${await nameOf(ctx, id)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/remove-avatar$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      const reports = idsOf(form, "report");
      await removeAvatar(ctx, actor, id, field(form, "remove_reason"), reports);
      return `Removed the avatar of ${await nameOf(ctx, id)}${closed(reports)}.`;
    },
  },
  {
    pattern: /^\/mod\/messages\/(\d{1,15})\/remove$/,
    home: () => "/mod/reports",
    async run({ ctx, actor, id, form }) {
      const reports = idsOf(form, "report");
      await removeMessage(ctx, actor, id, field(form, "remove_reason"), reports);
      return `Removed message #${id}${closed(reports)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/suspend$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      const reports = idsOf(form, "report");
      const hours = hoursOf(form);
      await suspendRoulette(ctx, actor, id, { hours, reason: field(form, "suspend_reason") }, reports);
      return `Suspended ${await nameOf(ctx, id)} from roulette ${hours === null ? "until lifted" : `for ${hours} h`}${closed(reports)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/lift-suspension$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      await liftRouletteSuspension(ctx, actor, id, field(form, "reason"));
      return `Lifted the roulette suspension of ${await nameOf(ctx, id)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/end-sessions$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      await endSessions(ctx, actor, id, field(form, "reason"));
      return `Ended every session of ${await nameOf(ctx, id)}.`;
    },
  },
  {
    pattern: /^\/mod\/users\/(\d{1,15})\/role$/,
    home: userHome,
    async run({ ctx, actor, id, form }) {
      const role = roleOf(form);
      await setRole(ctx, actor, id, role);
      return `${await nameOf(ctx, id)} is now ${role === "admin" ? "an admin" : `a ${role}`}.`;
    },
  },
  {
    pattern: /^\/mod\/reports\/dismiss$/,
    home: () => "/mod/reports",
    async run({ ctx, actor, form }) {
      const reports = idsOf(form, "report");
      await dismissReports(ctx, actor, reports, field(form, "dismiss_reason"));
      return `Dismissed ${reports.length} ${reports.length === 1 ? "report" : "reports"}.`;
    },
  },
  {
    pattern: /^\/mod\/reports\/(\d{1,15})\/delete$/,
    home: () => "/mod/reports",
    async run({ ctx, actor, id, form }) {
      if (field(form, "confirm") !== "on") throw validationError({ confirm: "Tick the box to confirm the deletion" });
      await deleteReport(ctx, actor, id);
      return `Deleted report #${id}.`;
    },
  },
  {
    pattern: /^\/mod\/appeals\/(\d{1,15})\/decide$/,
    home: () => "/mod/appeals",
    async run({ ctx, actor, id, form }) {
      const decision = field(form, "decision");
      if (decision !== "uphold" && decision !== "lift") throw validationError({ decision: "Choose to uphold or lift the ban" });
      await decideAppeal(ctx, actor, id, { lift: decision === "lift", response: field(form, "response") });
      return decision === "lift" ? `Lifted the ban (appeal #${id}).` : `Upheld the ban (appeal #${id}).`;
    },
  },
];
