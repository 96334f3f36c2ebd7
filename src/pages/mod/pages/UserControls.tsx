// The account-level actions that close no report: unban, lift a roulette suspension, end
// sessions, and (admins only) the role.
import { ModForm } from "../components/ModForm.tsx";
import type { ModView } from "../view.ts";
import type { UserPageData } from "./UserPage.tsx";

export function UserControls({ view, data }: { view: ModView; data: UserPageData }) {
  const { user } = data;
  const path = `/mod/users/${user.id}`;
  return (
    <div className="mod-controls">
      {data.activeBan ? (
        <ModForm view={view} action={`${path}/unban`} back={path}>
          <label>
            Why the ban is lifted
            <input type="text" name="reason" maxLength={1000} />
          </label>
          <button type="submit" className="btn btn-secondary">
            Unban
          </button>
        </ModForm>
      ) : null}
      {user.rouletteSuspendedAt !== null ? (
        <ModForm view={view} action={`${path}/lift-suspension`} back={path}>
          <label>
            Why the suspension is lifted
            <input type="text" name="reason" maxLength={1000} />
          </label>
          <button type="submit" className="btn btn-secondary">
            Lift roulette suspension
          </button>
        </ModForm>
      ) : null}
      <ModForm view={view} action={`${path}/end-sessions`} back={path}>
        <label>
          Why (for the log)
          <input type="text" name="reason" maxLength={1000} />
        </label>
        <button type="submit" className="btn btn-secondary">
          End sessions now ({data.sessions.count})
        </button>
      </ModForm>
      {view.viewer.role === "admin" ? (
        <ModForm view={view} action={`${path}/role`} back={path}>
          <label>
            Role
            <select name="role" defaultValue={user.role}>
              <option value="user">user</option>
              <option value="moderator">moderator</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit" className="btn btn-secondary">
            Change role
          </button>
        </ModForm>
      ) : null}
    </div>
  );
}
