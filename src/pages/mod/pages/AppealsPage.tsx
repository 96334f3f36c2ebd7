// Appeals: open ones first, each with its ban and the user's text; uphold or lift with a message
// the user reads on the appeal page.
import type { AppealItem } from "../../../moderation/queries/log.ts";
import type { Paged } from "../../../moderation/queries/reports.ts";
import { ModForm } from "../components/ModForm.tsx";
import { ModPage } from "../components/ModPage.tsx";
import { Pager } from "../components/Pager.tsx";
import { Time } from "../components/Time.tsx";
import { banEndText } from "../format.ts";
import type { ModView } from "../view.ts";

function Appeal({ view, item, back }: { view: ModView; item: AppealItem; back: string }) {
  const { appeal, ban } = item;
  return (
    <article className="mod-card mod-appeal" aria-label={`Appeal #${appeal.id}`}>
      <h2>
        Appeal #{appeal.id} by <a href={`/mod/users/${appeal.userId}`}>{item.username}</a> <span className="mod-tag">{appeal.status}</span>
      </h2>
      <dl className="mod-facts">
        <dt>Ban</dt>
        <dd>
          {banEndText(ban.until)}, made <Time at={ban.createdAt} />
          {ban.liftedAt !== null ? " (lifted)" : ""}
        </dd>
        <dt>Ban reason</dt>
        <dd className="mod-pre">{ban.reason}</dd>
        <dt>Appeal</dt>
        <dd className="mod-pre">{appeal.text}</dd>
        <dt>Sent</dt>
        <dd>
          <Time at={appeal.createdAt} />
        </dd>
        {appeal.decidedAt !== null ? (
          <>
            <dt>Decided</dt>
            <dd>
              <Time at={appeal.decidedAt} /> by {item.deciderName ?? "a moderator"}: <span className="mod-pre">{appeal.response ?? ""}</span>
            </dd>
          </>
        ) : null}
      </dl>
      {appeal.status === "open" ? (
        <ModForm view={view} action={`/mod/appeals/${appeal.id}/decide`} back={back}>
          <label>
            Message to the user
            <textarea name="response" rows={2} maxLength={1000} />
          </label>
          <div className="mod-buttons">
            <button type="submit" name="decision" value="uphold" className="btn btn-secondary">
              Uphold the ban
            </button>
            <button type="submit" name="decision" value="lift" className="btn btn-primary">
              Lift the ban
            </button>
          </div>
        </ModForm>
      ) : null}
    </article>
  );
}

export function AppealsPage({ view, result }: { view: ModView; result: Paged<AppealItem> }) {
  const back = result.page > 1 ? `/mod/appeals?page=${result.page}` : "/mod/appeals";
  return (
    <ModPage view={view} title="Appeals">
      {result.rows.length === 0 ? <p>No appeals.</p> : result.rows.map((item) => <Appeal key={item.appeal.id} view={view} item={item} back={back} />)}
      <Pager path="/mod/appeals" query={{}} page={result.page} pages={result.pages} />
    </ModPage>
  );
}
