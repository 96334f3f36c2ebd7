// Icons of the call and roulette controls (stroke follows currentColor). Decorative: every
// button that carries one has its own label.
import type { ReactElement } from "react";
import { SvgIcon } from "../chat/icons.tsx";

export type CallIconName = "mic" | "micOff" | "video" | "videoOff" | "phone" | "hangUp" | "volume" | "next" | "stop" | "flag" | "ban" | "heart";

const PATHS: Record<CallIconName, ReactElement> = {
  mic: <><rect x="9" y="2" width="6" height="12" rx="3" /><path d="M5 10a7 7 0 0 0 14 0M12 17v5M8 22h8" /></>,
  micOff: <><path d="M15 9.3V5a3 3 0 0 0-5.7-1.3M9 9v2a3 3 0 0 0 4.7 2.5M19 10a7 7 0 0 1-1.1 3.8M5 10a7 7 0 0 0 11 5.7M12 17v5M8 22h8M2 2l20 20" /></>,
  video: <><rect x="2" y="6" width="14" height="12" rx="2" /><path d="m16 10 6-3v10l-6-3" /></>,
  videoOff: <><path d="M10.7 6H14a2 2 0 0 1 2 2v3.3l1 1 5-3v10M16 16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h2M2 2l20 20" /></>,
  phone: <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />,
  hangUp: <path d="M3.7 15.3 1.5 13a1.6 1.6 0 0 1 0-2.3C4.4 7.9 8.1 6.5 12 6.5s7.6 1.4 10.5 4.2a1.6 1.6 0 0 1 0 2.3l-2.2 2.3a1.6 1.6 0 0 1-2.1.1l-2.3-1.8a1.6 1.6 0 0 1-.6-1.3V10a13 13 0 0 0-6.6 0v2.3a1.6 1.6 0 0 1-.6 1.3l-2.3 1.8a1.6 1.6 0 0 1-2.1-.1z" />,
  volume: <><path d="M11 5 6 9H2v6h4l5 4z" /><path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" /></>,
  next: <><path d="m5 4 10 8-10 8z" /><path d="M19 5v14" /></>,
  stop: <rect x="5" y="5" width="14" height="14" rx="2" />,
  flag: <path d="M4 22V4M4 4h13l-2 4 2 4H4" />,
  ban: <><circle cx="12" cy="12" r="9" /><path d="m5.6 5.6 12.8 12.8" /></>,
  heart: <path d="M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1.1L12 21l7.8-7.5 1-1.1a5.5 5.5 0 0 0 0-7.8z" />,
};

export default function CallIcon({ name, size = 24 }: { name: CallIconName; size?: number }) {
  return <SvgIcon size={size}>{PATHS[name]}</SvgIcon>;
}
