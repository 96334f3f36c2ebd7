// Everything a moderator, an admin or the command line can do, in one import for the console
// (src/pages/mod) and scripts/moderate.ts. Each action checks its actor and input (AppError
// 400/403/404), writes one audit row and closes the reports it answers.
export { type Actor, type BanDays, type Role } from "./actor.ts";
export { banUser, unbanUser, decideAppeal, type BanOptions, type AppealDecision } from "./ban-actions.ts";
export { warnUser, suspendRoulette, liftRouletteSuspension, endSessions, setRole, type SuspensionOptions } from "./user-actions.ts";
export { removeMessage, removeAvatar } from "./content-actions.ts";
export { dismissReports, deleteReport } from "./report-actions.ts";
export { sweepRetention } from "./retention.ts";
export { appealUrl, banIdOfAppealToken } from "./appeal-token.ts";
export { activeBan, banNotice } from "./bans.ts";
export { fileAppeal, appealFor } from "./appeals.ts";
