// Operator tool: ban or unban a user by username, on the same DATA_DIR the server uses.
//   bun scripts/moderate.ts ban <username> [days]     (no days: permanent)
//   bun scripts/moderate.ts unban <username>
// A running server refuses the banned user's requests at once and closes their open sockets
// at the next event they send (at most 15 s later, the client's ping interval).
import { loadConfig } from "../src/config.ts";
import { openStorage } from "../src/db.ts";
import { ban, findByUsername, unban } from "../src/moderation/service.ts";

const [command, username, days] = process.argv.slice(2);
if (!command || !username || !["ban", "unban"].includes(command) || (days !== undefined && !/^\d+$/.test(days))) {
  console.error("usage: bun scripts/moderate.ts ban <username> [days] | unban <username>");
  process.exit(2);
}
const { db, sqlite } = openStorage(loadConfig().dataDir);
const user = findByUsername(db, username);
if (!user) {
  console.error(`No user named ${username}`);
  process.exit(1);
}
if (command === "ban") {
  const until = days === undefined ? null : Date.now() + Number(days) * 86_400_000;
  const ended = ban(db, user.id, until);
  console.log(`Banned ${user.username} ${until === null ? "permanently" : `until ${new Date(until).toISOString()}`}; ended ${ended.length} session(s).`);
} else {
  unban(db, user.id);
  console.log(`Unbanned ${user.username}.`);
}
sqlite.close();
