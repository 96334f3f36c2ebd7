// One person's record: profile, sessions, bans, warnings, reports both ways, and every action.
import type { BanRow, UserRow, WarningRow } from "../../../storage/tables.ts";
import type { SessionSummary } from "../../../moderation/queries/people.ts";
import type { ReportListItem } from "../../../moderation/queries/reports.ts";
import { ActionPanel } from "../components/ActionPanel.tsx";
import { ModPage } from "../components/ModPage.tsx";
import { ReportTable } from "../components/ReportTable.tsx";
import { Time } from "../components/Time.tsx";
import { banEndText, durationText } from "../format.ts";
import type { ModView } from "../view.ts";
import { UserControls } from "./UserControls.tsx";

export interface UserPageData {
  user: UserRow;
  sessions: SessionSummary;
  activeBan: BanRow | undefined;
  bans: BanRow[];
  warnings: WarningRow[];
  received: ReportListItem[];
  made: ReportListItem[];
  openReports: ReportListItem[];
}

export function UserPage({ view, data }: { view: ModView; data: UserPageData }) {
  const { user } = data;
  return (
    <ModPage view={view} title={user.username}>
      <dl className="mod-facts">
        <dt>Id</dt>
        <dd>#{user.id}</dd>
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>E-mail</dt>
        <dd>{user.email ?? "—"}</dd>
        <dt>Account</dt>
        <dd>
          {`${user.isGuest ? "Guest" : "Registered"}, ${durationText(view.now - user.createdAt)} old `}(<Time at={user.createdAt} />)
        </dd>
        <dt>Profile</dt>
        <dd>
          {[user.gender, user.age === null ? null : `${user.age}`, user.countryName].filter(Boolean).join(", ")}
          {user.avatarPath ? " · has an avatar" : ""}
        </dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
        <dt>Sessions</dt>
        <dd>
          {data.sessions.count} open
          {data.sessions.lastUsedAt !== null ? (
            <>
              , last used <Time at={data.sessions.lastUsedAt} />
            </>
          ) : null}
        </dd>
        <dt>Ban</dt>
        <dd className={data.activeBan ? "mod-bad" : undefined}>{data.activeBan ? `Banned ${banEndText(data.activeBan.until)}: ${data.activeBan.reason}` : "Not banned"}</dd>
        <dt>Roulette</dt>
        <dd className={user.rouletteSuspendedAt !== null ? "mod-bad" : undefined}>
          {user.rouletteSuspendedAt === null
            ? "Not suspended"
            : `Suspended ${user.rouletteSuspendedUntil === null ? "until lifted" : banEndText(user.rouletteSuspendedUntil)}${user.rouletteSuspensionReason ? `: ${user.rouletteSuspensionReason}` : " (automatic, by reports)"}`}
        </dd>
      </dl>

      <h2>Actions</h2>
      <ActionPanel view={view} back={`/mod/users/${user.id}`} target={{ user, openReports: data.openReports }} />
      <UserControls view={view} data={data} />

      <h2>Reports</h2>
      <ReportTable caption="Reports about this user (newest 50)" reports={data.received} />
      <ReportTable caption="Reports this user made (newest 50)" reports={data.made} />

      <h2>Bans</h2>
      {data.bans.length === 0 ? (
        <p className="mod-muted">None.</p>
      ) : (
        <ul className="mod-history">
          {data.bans.map((ban) => (
            <li key={ban.id}>
              <Time at={ban.createdAt} />: {banEndText(ban.until)}, “{ban.reason}”{ban.addressHash ? " (address too)" : ""}
              {ban.liftedAt !== null ? (
                <>
                  {" "}
                  · lifted <Time at={ban.liftedAt} />
                  {ban.liftReason ? `: ${ban.liftReason}` : ""}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <h2>Warnings</h2>
      {data.warnings.length === 0 ? (
        <p className="mod-muted">None.</p>
      ) : (
        <ul className="mod-history">
          {data.warnings.map((warning) => (
            <li key={warning.id}>
              <Time at={warning.createdAt} />: “{warning.reason}” · {warning.acknowledgedAt === null ? "not acknowledged yet" : "acknowledged"}
            </li>
          ))}
        </ul>
      )}
    </ModPage>
  );
}
