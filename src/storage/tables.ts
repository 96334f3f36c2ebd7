// The tables services query, of the engine this process runs (storage/engine.ts). Both schema
// files export the same names with the same row types (tests/db/schema-parity.test.ts), so the
// SQLite file's types describe both: services write one drizzle query and it builds SQLite's or
// PostgreSQL's SQL from the table it is given. Import tables from here, never from db/schema.ts
// (that file is the SQLite dialect only: migrations, the copy to PostgreSQL, the parity test).
import * as sqlite from "../../db/schema.ts";
import * as postgres from "../../db/pg/schema.ts";
import { engine } from "./engine.ts";

const chosen = (engine === "postgres" ? postgres : sqlite) as unknown as typeof sqlite;

export const {
  users,
  sessions,
  messages,
  messageReactions,
  conversations,
  blocks,
  rouletteBlocks,
  userDevices,
  deviceCarriers,
  reports,
  callMeetings,
  rouletteSessions,
  bans,
  banDevices,
  appeals,
  warnings,
  auditLog,
  interestTags,
  pushSubscriptions,
} = chosen;

export type {
  UserRow,
  NewUserRow,
  SessionRow,
  MessageRow,
  NewMessageRow,
  MessageReactionRow,
  ConversationRow,
  BlockRow,
  RouletteBlockRow,
  ReportRow,
  NewReportRow,
  BanRow,
  AppealRow,
  WarningRow,
  AuditRow,
  RouletteSessionRow,
  PushSubscriptionRow,
} from "../../db/schema.ts";
