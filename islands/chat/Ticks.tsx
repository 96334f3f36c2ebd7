// Status ticks on my messages: single = sent, double grey = delivered, double blue = read.
import { tickState } from "../lib/messages.ts";
import type { Message, TickState } from "../lib/types.ts";
import Icon from "./icons.tsx";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { t } from "../i18n.ts";

const LABEL: Record<TickState, Key> = { sent: "chat.tick_sent", delivered: "chat.tick_delivered", read: "chat.tick_read" };

export default function Ticks({ message, state }: { message?: Message; state?: TickState }) {
  const s = state ?? (message ? tickState(message) : "sent");
  return (
    <span className={`ticks ticks-${s}`} role="img" aria-label={t(LABEL[s])} title={t(LABEL[s])} data-status={s}>
      <Icon name={s === "sent" ? "check" : "checks"} size={16} />
    </span>
  );
}
