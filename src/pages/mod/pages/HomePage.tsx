// The console's home: how much waits and how fast it is handled, each number a link to its list.
import type { DashboardStats } from "../../../moderation/queries/dashboard.ts";
import { durationText } from "../format.ts";
import { ModPage } from "../components/ModPage.tsx";
import type { ModView } from "../view.ts";

function Stat({ label, value, href }: { label: string; value: string; href: string }) {
  return (
    <a className="mod-stat" href={href}>
      <span className="mod-stat-value">{value}</span>
      <span className="mod-stat-label">{label}</span>
    </a>
  );
}

export function HomePage({ view, stats }: { view: ModView; stats: DashboardStats }) {
  return (
    <ModPage view={view} title="Moderation">
      <div className="mod-stats">
        <Stat label="Open reports" value={String(stats.openReports)} href="/mod/reports" />
        <Stat label="Oldest open report" value={stats.oldestOpenAt === null ? "none" : durationText(view.now - stats.oldestOpenAt)} href="/mod/reports" />
        <Stat label="Reports in the last 24 hours" value={String(stats.reportsLastDay)} href="/mod/reports?status=all" />
        <Stat label="Active bans" value={String(stats.activeBans)} href="/mod/audit?action=ban" />
        <Stat label="Open appeals" value={String(stats.openAppeals)} href="/mod/appeals" />
        <Stat
          label={`Median time to first action, last 7 days (${stats.actedLastWeek} reports)`}
          value={stats.medianToActionMs === null ? "no actions" : durationText(stats.medianToActionMs)}
          href="/mod/audit"
        />
      </div>
    </ModPage>
  );
}
