// The audit log, newest first, filterable by action, actor and target.
import type { AuditItem } from "../../../moderation/queries/log.ts";
import type { Paged } from "../../../moderation/queries/reports.ts";
import { ModPage } from "../components/ModPage.tsx";
import { Pager } from "../components/Pager.tsx";
import { Time } from "../components/Time.tsx";
import type { ModView } from "../view.ts";
import { ColumnHeads } from "../components/ColumnHeads.tsx";

export interface AuditQuery {
  action: string;
  actor: string;
  target: string;
}

/** The report ids an entry closed, from its JSON column. */
function reportIdsOf(json: string | null): number[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)).slice(0, 100) : [];
  } catch {
    return [];
  }
}

export function AuditPage({ view, query, actions, result }: { view: ModView; query: AuditQuery; actions: string[]; result: Paged<AuditItem> }) {
  return (
    <ModPage view={view} title="Audit log">
      <form method="get" action="/mod/audit" className="mod-filters">
        <label>
          Action
          <select name="action" defaultValue={query.action}>
            <option value="">Any action</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor (username or id)
          <input type="text" name="actor" defaultValue={query.actor} maxLength={100} />
        </label>
        <label>
          Target user (username or id)
          <input type="text" name="target" defaultValue={query.target} maxLength={100} />
        </label>
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
      </form>
      <p className="mod-muted">{`${result.total} ${result.total === 1 ? "entry" : "entries"}. The log is append-only.`}</p>
      {result.rows.length === 0 ? null : (
        <table className="mod-table mod-audit">
          <ColumnHeads columns={["When", "Who", "Action", "Whom", "Why", "Reports", "Detail"]} />
          <tbody>
            {result.rows.map(({ entry, actorName, targetName }) => (
              <tr key={entry.id} data-action={entry.action}>
                <td>
                  <Time at={entry.at} />
                </td>
                <td>{entry.actorId === null ? "command line" : actorName ? <a href={`/mod/users/${entry.actorId}`}>{actorName}</a> : `#${entry.actorId}`}</td>
                <td>{entry.action}</td>
                <td>{entry.targetUserId === null ? "—" : <a href={`/mod/users/${entry.targetUserId}`}>{targetName ?? `#${entry.targetUserId}`}</a>}</td>
                <td className="mod-pre">{entry.reason ?? ""}</td>
                <td>
                  {reportIdsOf(entry.reportIds).map((id) => (
                    <a key={id} href={`/mod/reports/${id}`}>
                      #{id}{" "}
                    </a>
                  ))}
                </td>
                <td className="mod-detail">{entry.detail ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager path="/mod/audit" query={{ action: query.action, actor: query.actor, target: query.target }} page={result.page} pages={result.pages} />
    </ModPage>
  );
}
