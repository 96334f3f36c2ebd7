// The cover over a stranger's pictures: who sent them and "Tap to view". Tapping it reveals these
// pictures only; the next ones from the same stranger come blurred again.
import Icon from "../chat/icons.tsx";

export default function BlurCover({ sender, count, onReveal }: { sender: string; count: number; onReveal(): void }) {
  const what = count > 1 ? `${count} photos` : "Photo";
  return (
    <button type="button" className="blur-cover" aria-label={`${what} from ${sender}, hidden. Tap to view`} onClick={onReveal}>
      <Icon name="shield" size={22} />
      <span className="blur-cover-from">
        {what} from {sender}
      </span>
      <span className="blur-cover-action">Tap to view</span>
    </button>
  );
}
