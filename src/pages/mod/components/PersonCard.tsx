// Who someone is, at a glance: account age, guest or not, reports and bans.
import type { PersonSummary } from "../../../moderation/queries/people.ts";
import { banEndText, durationText } from "../format.ts";
import { Time } from "./Time.tsx";

export function PersonCard({ title, person, now }: { title: string; person: PersonSummary; now: number }) {
  const { user } = person;
  return (
    <section className="mod-card" aria-label={title}>
      <h2>{title}</h2>
      <p className="mod-person">
        <a href={`/mod/users/${user.id}`}>{user.username}</a> <span className="mod-muted">#{user.id} · {user.name}</span>
      </p>
      <dl className="mod-facts">
        <dt>Account</dt>
        <dd>
          {`${user.isGuest ? "Guest" : "Registered"}, ${durationText(now - user.createdAt)} old `}(<Time at={user.createdAt} />)
        </dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
        <dt>Reports</dt>
        <dd>{`${person.reportsReceived} received, ${person.reportsMade} made`}</dd>
        <dt>Bans</dt>
        <dd>
          {person.bans}
          {person.activeBan ? <strong className="mod-bad">{` · banned ${banEndText(person.activeBan.until)}`}</strong> : null}
        </dd>
        {user.rouletteSuspendedAt !== null ? (
          <>
            <dt>Roulette</dt>
            <dd className="mod-bad">Suspended {user.rouletteSuspendedUntil === null ? "until lifted" : banEndText(user.rouletteSuspendedUntil)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
