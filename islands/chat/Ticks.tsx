// Status ticks on my messages: single = sent, double grey = delivered, double blue = read.
import { tickState } from "../lib/messages.ts";
import type { Message, TickState } from "../lib/types.ts";
import Icon from "./icons.tsx";

const LABEL: Record<TickState, string> = { sent: "Sent", delivered: "Delivered", read: "Read" };

export default function Ticks({ message, state }: { message?: Message; state?: TickState }) {
  const s = state ?? (message ? tickState(message) : "sent");
  return (
    <span className={`ticks ticks-${s}`} role="img" aria-label={LABEL[s]} title={LABEL[s]} data-status={s}>
      <Icon name={s === "sent" ? "check" : "checks"} size={16} />
    </span>
  );
}
