// One report: the two people, what was reported with its evidence, and the actions.
import type { ReportRow } from "../../../storage/tables.ts";
import type { PersonSummary } from "../../../moderation/queries/people.ts";
import type { ReportListItem } from "../../../moderation/queries/reports.ts";
import { ACTIONS_FORM, ActionPanel, EnterGuard } from "../components/ActionPanel.tsx";
import { ModForm } from "../components/ModForm.tsx";
import { ModPage } from "../components/ModPage.tsx";
import { PersonCard } from "../components/PersonCard.tsx";
import { Time } from "../components/Time.tsx";
import { contextLabel, reasonLabel, stillBackendText } from "../format.ts";
import type { TranscriptLine } from "../transcript.ts";
import type { ModView } from "../view.ts";

export interface ReportPageData {
  report: ReportRow;
  reporter: PersonSummary;
  reported: PersonSummary;
  openReports: ReportListItem[];
  /** Messages of the reported person that can still be removed. */
  removable: Set<number>;
  transcript: TranscriptLine[];
}

function Transcript({ data }: { data: ReportPageData }) {
  const { report, transcript } = data;
  const names = new Map([
    [data.reporter.user.id, data.reporter.user.username],
    [data.reported.user.id, data.reported.user.username],
  ]);
  const title = report.context === "roulette" ? "Roulette text chat" : "Message snapshot";
  if (report.purgedAt !== null) return <p className="mod-muted">The snapshot was deleted by the retention rules.</p>;
  if (transcript.length === 0) return <p className="mod-muted">{title}: nothing was captured.</p>;
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <ol className="mod-transcript">
        {transcript.map((line, i) => (
          <li key={line.id ?? `l${i}`} className={line.id !== null && line.id === report.messageId ? "mod-reported-line" : undefined}>
            <span className="mod-line-who">{names.get(line.senderId) ?? `#${line.senderId}`}</span>
            <span className="mod-line-at">{line.at.slice(0, 19).replace("T", " ")}</span>
            <span className="mod-line-text">
              {line.deletedAt ? <em>{`[deleted by the sender at ${line.deletedAt.slice(0, 19).replace("T", " ")}]`}</em> : line.text}
              {line.fileName ? <em> [file: {line.fileName}]</em> : null}
              {line.editedAt ? <em>{` (edited at ${line.editedAt.slice(0, 19).replace("T", " ")})`}</em> : null}
            </span>
            {line.id !== null && line.id === report.messageId ? <strong className="mod-tag">reported</strong> : null}
            {line.id !== null && data.removable.has(line.id) ? (
              // The button belongs to the actions form (its reason and ticked reports) though it sits here.
              <button type="submit" form={ACTIONS_FORM} formAction={`/mod/messages/${line.id}/remove`} className="btn btn-ghost mod-line-remove">
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ReportPage({ view, data }: { view: ModView; data: ReportPageData }) {
  const { report } = data;
  const back = `/mod/reports/${report.id}`;
  const hasStill = report.evidencePath !== null && report.purgedAt === null;
  return (
    <ModPage view={view} title={`Report #${report.id}`}>
      <dl className="mod-facts mod-report-facts">
        <dt>Reason</dt>
        <dd className={report.reason === "underage" ? "mod-bad" : undefined}>{reasonLabel(report.reason)}</dd>
        <dt>Where</dt>
        <dd>{contextLabel(report.context)}</dd>
        <dt>Status</dt>
        <dd>
          {report.status}
          {report.closedAt !== null ? (
            <>
              {" "}
              (<Time at={report.closedAt} />)
            </>
          ) : null}
        </dd>
        <dt>Made</dt>
        <dd>
          <Time at={report.createdAt} />
          {report.updatedAt !== report.createdAt ? (
            <>
              , last added to <Time at={report.updatedAt} />
            </>
          ) : null}
        </dd>
        {report.firstActionAt !== null ? (
          <>
            <dt>First action</dt>
            <dd>
              <Time at={report.firstActionAt} />
            </dd>
          </>
        ) : null}
        <dt>Details</dt>
        <dd className="mod-pre">{report.details || "(none)"}</dd>
      </dl>

      <div className="mod-people">
        <PersonCard title="Reported" person={data.reported} now={view.now} />
        <PersonCard title="Reporter" person={data.reporter} now={view.now} />
      </div>

      {hasStill ? (
        <figure className="mod-still">
          <img src={`/mod/reports/${report.id}/still`} alt="The still the reporter's browser captured with the report" />
          <figcaption>
            Captured when the report was made.{report.context === "roulette" ? ` ${stillBackendText(report.stillBackend)}` : ""}
          </figcaption>
        </figure>
      ) : report.evidencePath !== null ? (
        <p className="mod-muted">The still was deleted by the retention rules.</p>
      ) : null}

      {/* The transcript's Remove buttons belong to the actions form below: the guard comes first. */}
      <EnterGuard />
      <Transcript data={data} />

      <h2>Actions on {data.reported.user.username}</h2>
      <ActionPanel
        view={view}
        back={back}
        target={{
          user: data.reported.user,
          openReports: data.openReports,
          currentReportId: report.id,
          messageId: report.messageId !== null && data.removable.has(report.messageId) ? report.messageId : null,
        }}
      />

      {view.viewer.role === "admin" ? (
        <ModForm view={view} action={`/mod/reports/${report.id}/delete`} back="/mod/reports" className="mod-form mod-danger-zone">
          <h2>Delete report</h2>
          <p>Deletes the report with its still and snapshot for good. Reports that someone appears to be under 18 are kept until an admin does this.</p>
          <label className="mod-check">
            <input type="checkbox" name="confirm" value="on" /> I understand this cannot be undone
          </label>
          <button type="submit" className="btn btn-danger">
            Delete report #{report.id}
          </button>
        </ModForm>
      ) : null}
    </ModPage>
  );
}
