// Skeletons for accounts made before usernames had one (issue 18). SQL cannot compute a UTS #39
// skeleton, so the migration adds the column and this fills it at start-up, oldest account first.
// Two old accounts whose names look alike cannot both hold one skeleton: the newer keeps null
// (it can still sign in; new names are checked against the older one's skeleton), and start-up
// goes on. Rows still null are tried again at each start, so it finishes once the older leaves.
import type { Database } from "bun:sqlite";
import { usernameSkeleton } from "./skeleton.ts";

export interface SkeletonFill {
  filled: number;
  /** Accounts left without a skeleton because an older one's name looks the same. */
  clashes: number;
}

export function fillUsernameSkeletons(sqlite: Database): SkeletonFill {
  const pending = sqlite.query<{ id: number; username: string }, []>("SELECT id, username FROM users WHERE username_skeleton IS NULL ORDER BY id").all();
  const result: SkeletonFill = { filled: 0, clashes: 0 };
  if (pending.length === 0) return result;
  const holder = sqlite.query<{ id: number }, [string]>("SELECT id FROM users WHERE username_skeleton = ?");
  const fill = sqlite.query<unknown, [string, number]>("UPDATE users SET username_skeleton = ? WHERE id = ?");
  // bun:sqlite's own synchronous transaction, not the storage seam's: this runs once, inside
  // openStorage, before the database is handed to anything else (no request, timer or other
  // transaction of this process exists yet), and openStorage itself is synchronous.
  sqlite.transaction(() => {
    for (const row of pending) {
      const skeleton = usernameSkeleton(row.username);
      if (holder.get(skeleton)) {
        result.clashes += 1;
        continue;
      }
      fill.run(skeleton, row.id);
      result.filled += 1;
    }
  })();
  return result;
}
