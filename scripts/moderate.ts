// Operator tool on the same DATA_DIR the server uses. Every command goes through the same actions
// as the console (src/moderation/actions.ts) and is written to the audit log as the command line.
//   bun scripts/moderate.ts ban <username> [days] [reason...]   (days 1, 7 or 30; none: permanent)
//   bun scripts/moderate.ts unban <username> [reason...]
//   bun scripts/moderate.ts grant <username> moderator|admin
//   bun scripts/moderate.ts revoke <username>
// A running server closes a banned user's sockets within 2 s (its ban watcher).
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { openDatabase } from "../src/storage/open.ts";
import { AppError } from "../src/http/errors.ts";
import { banUser, setRole, unbanUser, type Actor, type BanDays } from "../src/moderation/actions.ts";
import { findByUsername } from "../src/moderation/service.ts";

const USAGE = `usage:
  bun scripts/moderate.ts ban <username> [1|7|30] [reason...]
  bun scripts/moderate.ts unban <username> [reason...]
  bun scripts/moderate.ts grant <username> moderator|admin
  bun scripts/moderate.ts revoke <username>`;

const cli: Actor = { id: null, role: "cli" };
const [command, username, ...rest] = process.argv.slice(2);

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

if (!command || !username || !["ban", "unban", "grant", "revoke"].includes(command)) fail(USAGE);

const config = loadConfig();
const storage = await openDatabase(config);
const ctx = createContext(config, storage);
try {
  const user = (await findByUsername(ctx.db, username)) ?? fail(`No user named ${username}`, 1);
  if (command === "ban") {
    const daysGiven = rest[0] !== undefined && /^\d+$/.test(rest[0]);
    const days = (daysGiven ? Number(rest[0]) : null) as BanDays;
    if (daysGiven && ![1, 7, 30].includes(Number(rest[0]))) fail("A ban lasts 1, 7 or 30 days, or is permanent (no number)");
    const reason = (daysGiven ? rest.slice(1) : rest).join(" ").trim() || "Banned by the operator for breaking the Terms";
    const ban = await banUser(ctx, cli, user.id, { days, reason, banAddress: false });
    console.log(`Banned ${user.username} ${ban.until === null ? "permanently" : `until ${new Date(ban.until).toISOString()}`}: ${reason}`);
  } else if (command === "unban") {
    await unbanUser(ctx, cli, user.id, rest.join(" ").trim() || "Lifted by the operator");
    console.log(`Unbanned ${user.username}.`);
  } else if (command === "grant") {
    const role = rest[0];
    if (role !== "moderator" && role !== "admin") fail(USAGE);
    await setRole(ctx, cli, user.id, role);
    console.log(`${user.username} is now ${role === "admin" ? "an admin" : "a moderator"}.`);
  } else {
    await setRole(ctx, cli, user.id, "user");
    console.log(`${user.username} is now a user.`);
  }
} catch (error) {
  if (error instanceof AppError) fail(`${error.message}${error.extra.fields ? ` ${JSON.stringify(error.extra.fields)}` : ""}`, 1);
  throw error;
} finally {
  await storage.close();
}
