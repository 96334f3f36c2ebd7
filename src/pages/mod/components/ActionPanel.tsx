// The actions on one person, as one form: the open reports about them (all ticked, so one
// action closes them together), then warn, ban, remove content, suspend from roulette and
// dismiss, each with its own button posting to its own address.
import type { UserRow } from "../../../storage/tables.ts";
import type { ReportListItem } from "../../../moderation/queries/reports.ts";
import { contextLabel, reasonLabel } from "../format.ts";
import type { ModView } from "../view.ts";
import { ModForm } from "./ModForm.tsx";
import { Time } from "./Time.tsx";

/** The form's id, so buttons elsewhere on the page (a transcript line's "Remove") can post it. */
export const ACTIONS_FORM = "mod-actions";

/**
 * Enter in a text field submits a form with its first submit button in page order; when that
 * button is disabled nothing is sent. Rendered before any button of the actions form, so Enter
 * never fires an action. A page that puts such buttons above the form renders it above them.
 */
export function EnterGuard() {
  return <button type="submit" form={ACTIONS_FORM} disabled hidden tabIndex={-1} aria-hidden="true" />;
}

export interface ActionTarget {
  user: UserRow;
  /** Open reports about the user; the form lists them ticked. */
  openReports: ReportListItem[];
  /** The report the page shows, marked in the list. */
  currentReportId?: number;
  /** The reported message, when it can still be removed. */
  messageId?: number | null;
}

export function ActionPanel({ view, target, back }: { view: ModView; target: ActionTarget; back: string }) {
  const { user, openReports } = target;
  const userPath = `/mod/users/${user.id}`;
  // After a refusal the form comes back as it was sent: reasons, choices and ticked reports.
  const sent = view.posted;
  const typed = (name: string) => sent?.get(name) ?? undefined;
  const ticked = (reportId: number) => (sent ? sent.getAll("report").includes(String(reportId)) : true);
  return (
    <ModForm view={view} action={`${userPath}/warn`} back={back} className="mod-actions" id={ACTIONS_FORM}>
      <EnterGuard />
      {openReports.length > 0 ? (
        <fieldset className="mod-close-reports">
          <legend>Open reports about {user.username} this action closes</legend>
          {openReports.map((report) => (
            <label key={report.id} className="mod-check">
              <input type="checkbox" name="report" value={report.id} defaultChecked={ticked(report.id)} />
              <span>
                #{report.id} {reasonLabel(report.reason)} · {contextLabel(report.context)} · by {report.reporterName} · <Time at={report.createdAt} />
                {report.id === target.currentReportId ? " (this report)" : ""}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="mod-muted">No open reports about {user.username}.</p>
      )}

      <fieldset className="mod-action">
        <legend>Warn</legend>
        <label>
          Reason the user will read
          <textarea name="warn_reason" rows={2} maxLength={1000} defaultValue={typed("warn_reason")} />
        </label>
        <button type="submit" className="btn btn-secondary" formAction={`${userPath}/warn`}>
          Warn {user.username}
        </button>
      </fieldset>

      <fieldset className="mod-action">
        <legend>Ban</legend>
        <div className="mod-choices" role="radiogroup" aria-label="Length">
          {[
            ["1", "1 day"],
            ["7", "7 days"],
            ["30", "30 days"],
            ["permanent", "Permanent"],
          ].map(([value, label]) => (
            <label key={value} className="mod-check">
              <input type="radio" name="ban_days" value={value} defaultChecked={typed("ban_days") === value} /> {label}
            </label>
          ))}
        </div>
        <label>
          Reason the user will read
          <textarea name="ban_reason" rows={2} maxLength={1000} defaultValue={typed("ban_reason")} />
        </label>
        <label className="mod-check">
          <input type="checkbox" name="ban_address" value="on" defaultChecked={typed("ban_address") === "on"} /> Also ban the address (everyone sharing it, such as a café or a mobile network, is kept out
          of new accounts too)
        </label>
        <button type="submit" className="btn btn-danger" formAction={`${userPath}/ban`}>
          Ban {user.username}
        </button>
      </fieldset>

      <fieldset className="mod-action">
        <legend>Remove content</legend>
        <label>
          Reason (also for a message removed from the snapshot above)
          <input type="text" name="remove_reason" maxLength={1000} defaultValue={typed("remove_reason")} />
        </label>
        {target.messageId ? (
          <button type="submit" className="btn btn-secondary" formAction={`/mod/messages/${target.messageId}/remove`}>
            Remove the reported message
          </button>
        ) : null}
        {user.avatarPath ? (
          <button type="submit" className="btn btn-secondary" formAction={`${userPath}/remove-avatar`}>
            Remove the avatar
          </button>
        ) : null}
        {!target.messageId && !user.avatarPath ? <p className="mod-muted">No reported message or avatar to remove.</p> : null}
      </fieldset>

      <fieldset className="mod-action">
        <legend>Suspend from Video Roulette</legend>
        <label>
          Hours (leave empty: until a moderator lifts it)
          <input type="number" name="suspend_hours" min={1} max={8760} step={1} defaultValue={typed("suspend_hours")} />
        </label>
        <label>
          Reason the user will read
          <input type="text" name="suspend_reason" maxLength={1000} defaultValue={typed("suspend_reason")} />
        </label>
        <button type="submit" className="btn btn-secondary" formAction={`${userPath}/suspend`}>
          Suspend from roulette
        </button>
      </fieldset>

      {openReports.length > 0 ? (
        <fieldset className="mod-action">
          <legend>Dismiss</legend>
          <label>
            Why (for the log)
            <input type="text" name="dismiss_reason" maxLength={1000} defaultValue={typed("dismiss_reason")} />
          </label>
          <button type="submit" className="btn btn-secondary" formAction="/mod/reports/dismiss">
            Dismiss the ticked reports
          </button>
        </fieldset>
      ) : null}
    </ModForm>
  );
}
