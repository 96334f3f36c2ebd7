// The cover over pictures: why they are hidden and "Tap to view". Tapping it reveals these
// pictures only; the next ones come covered again if they need it. A stranger's pictures say who
// sent them; pictures the nudity classifier flagged, or has not cleared yet, say that (issue 12).
import Icon from "../chat/icons.tsx";
import type { CoverReason } from "../nudity/picture-cover.ts";

function line(reason: CoverReason, sender: string, count: number): string {
  const what = count > 1 ? `${count} photos` : "Photo";
  if (reason === "explicit") return `${what} from ${sender} may show nudity`;
  if (reason === "checking") return `${what} from ${sender} not checked yet`;
  return `${what} from ${sender}`;
}

export default function BlurCover({ sender, count, reason = "stranger", onReveal }: { sender: string; count: number; reason?: CoverReason; onReveal(): void }) {
  const text = line(reason, sender, count);
  return (
    <button type="button" className="blur-cover" data-reason={reason} aria-label={`${text}, hidden. Tap to view`} onClick={onReveal}>
      <Icon name="shield" size={22} />
      <span className="blur-cover-from">{text}</span>
      <span className="blur-cover-action">Tap to view</span>
    </button>
  );
}
