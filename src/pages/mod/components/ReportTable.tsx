// A short list of reports (a user's, or the queue's neighbours), each linking to its page.
import type { ReportListItem } from "../../../moderation/queries/reports.ts";
import { contextLabel, reasonLabel } from "../format.ts";
import { Time } from "./Time.tsx";
import { ColumnHeads } from "./ColumnHeads.tsx";

export function ReportTable({ reports, caption }: { reports: ReportListItem[]; caption: string }) {
  if (reports.length === 0) return <p className="mod-muted">{caption}: none.</p>;
  return (
    <table className="mod-table">
      <caption>{caption}</caption>
      <ColumnHeads columns={["Report", "Reason", "Where", "Reporter", "Reported", "Status", "Made"]} />
      <tbody>
        {reports.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={`/mod/reports/${r.id}`}>#{r.id}</a>
            </td>
            <td>{reasonLabel(r.reason)}</td>
            <td>{contextLabel(r.context)}</td>
            <td>
              <a href={`/mod/users/${r.reporterId}`}>{r.reporterName}</a>
            </td>
            <td>
              <a href={`/mod/users/${r.reportedId}`}>{r.reportedName}</a>
            </td>
            <td>{r.status}</td>
            <td>
              <Time at={r.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
