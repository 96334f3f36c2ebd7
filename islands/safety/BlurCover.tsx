// The cover over pictures: why they are hidden and "Tap to view". Tapping it reveals these
// pictures only; the next ones come covered again if they need it. A stranger's pictures say who
// sent them; pictures the nudity classifier flagged, or has not cleared yet, say that (issue 12).
import Icon from "../chat/icons.tsx";
import { t } from "../i18n.ts";
import type { CoverReason } from "../nudity/picture-cover.ts";

function line(reason: CoverReason, sender: string, count: number): string {
  if (reason === "explicit") return t("safety.cover_explicit", { sender, count });
  if (reason === "checking") return t("safety.cover_checking", { sender, count });
  return t("safety.cover_from", { sender, count });
}

export default function BlurCover({ sender, count, reason = "stranger", onReveal }: { sender: string; count: number; reason?: CoverReason; onReveal(): void }) {
  const text = line(reason, sender, count);
  return (
    <button type="button" className="blur-cover" data-reason={reason} aria-label={t("safety.cover_label", { text })} onClick={onReveal}>
      <Icon name="shield" size={22} />
      <span className="blur-cover-from">{text}</span>
      <span className="blur-cover-action">{t("safety.tap_to_view")}</span>
    </button>
  );
}
