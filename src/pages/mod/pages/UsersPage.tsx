// Search people by username, e-mail or id.
import type { UserRow } from "../../../storage/tables.ts";
import { ModPage } from "../components/ModPage.tsx";
import { Time } from "../components/Time.tsx";
import type { ModView } from "../view.ts";
import { ColumnHeads } from "../components/ColumnHeads.tsx";

export function UsersPage({ view, query, results }: { view: ModView; query: string; results: UserRow[] }) {
  return (
    <ModPage view={view} title="Users">
      <form method="get" action="/mod/users" className="mod-filters" role="search">
        <label>
          Username, e-mail or id
          <input type="search" name="q" defaultValue={query} maxLength={100} />
        </label>
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </form>
      {query === "" ? null : results.length === 0 ? (
        <p>Nobody matches “{query}”.</p>
      ) : (
        <table className="mod-table">
          <ColumnHeads columns={["User", "Name", "E-mail", "Account", "Role", "Since"]} />
          <tbody>
            {results.map((user) => (
              <tr key={user.id}>
                <td>
                  <a href={`/mod/users/${user.id}`}>{user.username}</a> <span className="mod-muted">#{user.id}</span>
                </td>
                <td>{user.name}</td>
                <td>{user.email ?? "—"}</td>
                <td>
                  {user.isGuest ? "Guest" : "Registered"}
                  {user.banned ? <span className="mod-tag mod-bad">banned</span> : null}
                </td>
                <td>{user.role}</td>
                <td>
                  <Time at={user.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ModPage>
  );
}
