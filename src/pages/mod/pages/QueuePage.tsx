// The report queue: filters by reason and status, then one page of reports in working order.
import type { Paged, QueueFilter, QueueRow } from "../../../moderation/queries/reports.ts";
import { reportStatuses } from "../../../moderation/queries/reports.ts";
import { reportReasons } from "../../../reports/model.ts";
import { Pager } from "../components/Pager.tsx";
import { ModPage } from "../components/ModPage.tsx";
import { Ago } from "../components/Time.tsx";
import { contextLabel, reasonLabel } from "../format.ts";
import type { ModView } from "../view.ts";
import { ColumnHeads } from "../components/ColumnHeads.tsx";

export function QueuePage({ view, filter, result }: { view: ModView; filter: QueueFilter; result: Paged<QueueRow> }) {
  return (
    <ModPage view={view} title="Reports">
      <form method="get" action="/mod/reports" className="mod-filters">
        <label>
          Reason
          <select name="reason" defaultValue={filter.reason ?? ""}>
            <option value="">Any reason</option>
            {reportReasons.map((reason) => (
              <option key={reason} value={reason}>
                {reasonLabel(reason)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue={filter.status}>
            {[...reportStatuses, "all"].map((status) => (
              <option key={status} value={status}>
                {status === "all" ? "Any status" : status}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
      </form>
      <p className="mod-muted">
        {`${result.total} ${result.total === 1 ? "report" : "reports"}. Open first, “Appears to be under 18” on top, then the people most reported, then the oldest.`}
      </p>
      {result.rows.length === 0 ? (
        <p>Nothing here.</p>
      ) : (
        <table className="mod-table mod-queue">
          <ColumnHeads columns={["Report", "Reason", "Reported", "Reporters", "Where", "Details", "Status", "Made"]} />
          <tbody>
            {result.rows.map((row) => (
              <tr key={row.id} className={row.reason === "underage" ? "mod-urgent" : undefined} data-report={row.id}>
                <td>
                  <a href={`/mod/reports/${row.id}`}>#{row.id}</a>
                  {row.hasEvidence ? <span className="mod-tag">still</span> : null}
                </td>
                <td>{reasonLabel(row.reason)}</td>
                <td>
                  <a href={`/mod/users/${row.reportedId}`}>{row.reportedName}</a>
                </td>
                <td>{row.reporters}</td>
                <td>{contextLabel(row.context)}</td>
                <td className="mod-details">{row.details}</td>
                <td>{row.status}</td>
                <td>
                  <Ago at={row.createdAt} now={view.now} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager path="/mod/reports" query={{ reason: filter.reason ?? "", status: filter.status }} page={result.page} pages={result.pages} />
    </ModPage>
  );
}
