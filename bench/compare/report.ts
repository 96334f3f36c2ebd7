// The final Markdown table: rows are figures, columns the three systems; each message figure is
// the median over the rounds.
import type { HistoryResult } from "../load/history.ts";
import type { MessageResult } from "../load/messages.ts";
import type { RouletteResult } from "../load/roulette.ts";
import type { SocketsResult } from "../load/sockets.ts";
import type { HistoryOptions } from "./project-only.ts";
import { LABELS, SYSTEMS, type SystemName } from "./systems.ts";

export interface Figures {
  /** Per system, per socket count, one result per round. */
  messages: Record<SystemName, Map<number, MessageResult[]>>;
  /** Per system, the paced runs (offered rate over the larger socket count), one per round. */
  paced: Record<SystemName, MessageResult[]>;
  sockets: Partial<Record<SystemName, SocketsResult>>;
  /** The project holding as many idle sockets as the open-files limit lets one process hold. */
  held?: HeldResult;
  roulette?: RouletteResult;
  history?: { result: HistoryResult; options: HistoryOptions };
}

export interface HeldResult {
  asked: number;
  opened: number;
  stillOpen: number;
  holdMs: number;
  openMs: number;
  rssBeforeKb: number;
  rssHeldKb: number;
}

export const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : "–");
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : "–");
/** 1000 → "1k", 100000 → "100k". */
export const short = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

function messageFigure(f: Figures, system: SystemName, sockets: number, pick: (r: MessageResult) => number): number {
  return median((f.messages[system].get(sockets) ?? []).map(pick));
}

export interface Shape {
  socketCounts: number[];
  offered: number;
  idle: number;
  openLimitS: number;
}

export function table(f: Figures, { socketCounts, offered, idle: idleCount, openLimitS }: Shape): string {
  const rows: [string, Record<SystemName, string>][] = [];
  const each = (cell: (s: SystemName) => string): Record<SystemName, string> => ({ project: cell("project"), peer: cell("peer"), floor: cell("floor") });
  const only = (project: string): Record<SystemName, string> => ({ project, peer: "–", floor: "–" });
  for (const n of socketCounts) {
    rows.push([`messages stored + delivered per second, ${int(n)} sockets`, each((s) => int(messageFigure(f, s, n, (r) => r.deliveredPerSecond)))]);
    rows.push([`ack latency p50 / p99 (ms), ${int(n)} sockets`, each((s) => `${ms(messageFigure(f, s, n, (r) => r.ackP50))} / ${ms(messageFigure(f, s, n, (r) => r.ackP99))}`)]);
  }
  if (offered > 0) {
    const paced = (s: SystemName, pick: (r: MessageResult) => number) => median(f.paced[s].map(pick));
    rows.push([
      `${int(offered)} messages/s offered over ${int(socketCounts.at(-1)!)} sockets: achieved, ack p50 / p99 (ms)`,
      each((s) => `${int(paced(s, (r) => r.deliveredPerSecond))}, ${ms(paced(s, (r) => r.ackP50))} / ${ms(paced(s, (r) => r.ackP99))}`),
    ]);
  }
  rows.push([`server CPU per message (us), ${socketCounts.map(int).join(" / ")} sockets`, each((s) => socketCounts.map((n) => int(messageFigure(f, s, n, (r) => r.cpuPerMessageUs))).join(" / "))]);
  const most = socketCounts.at(-1)!;
  rows.push([`server RSS during the ${int(most)}-socket run (MB)`, each((s) => int(messageFigure(f, s, most, (r) => r.rssKb / 1024)))]);
  for (const n of socketCounts) {
    const rate = (s: SystemName) => messageFigure(f, s, n, (r) => r.deliveredPerSecond);
    rows.push([`this project ÷ column, messages per second, ${int(n)} sockets`, each((s) => (s === "project" ? "1" : ratio(rate("project"), rate(s))))]);
  }
  const cpu = (s: SystemName) => messageFigure(f, s, most, (r) => r.cpuPerMessageUs);
  rows.push([`this project ÷ column, CPU per message, ${int(most)} sockets`, each((s) => (s === "project" ? "1" : ratio(cpu("project"), cpu(s))))]);
  rows.push([
    `memory per idle signed-in socket (KB, ${int(idleCount)} sockets)`,
    each((s) => {
      const r = f.sockets[s];
      return r ? (r.kbPerSocket < 10 ? r.kbPerSocket.toFixed(1) : int(r.kbPerSocket)) : "–";
    }),
  ]);
  rows.push([
    `time to open ${int(idleCount)} sockets (s; stops at ${openLimitS} s)`,
    each((s) => {
      const r = f.sockets[s];
      if (!r) return "–";
      const time = (r.openMs / 1000).toFixed(1);
      return r.opened < r.asked ? `${int(r.opened)} opened in ${time}` : time;
    }),
  ]);
  if (f.held) {
    const h = f.held;
    // No per-socket figure here: RSS before is read after signing up every account, whose garbage
    // the sockets then reuse; the 5,000-socket row above is the per-socket figure.
    rows.push([
      `idle sockets still open after ${h.holdMs / 1000} s (of ${int(h.asked)} asked; one process holds at most about 19,900: open-files limit 20,000, hard), server RSS (MB)`,
      only(`${int(h.stillOpen)}, ${int(h.rssHeldKb / 1024)} MB`),
    ]);
  }
  if (f.roulette) {
    const r = f.roulette;
    rows.push([`roulette pairings per second (${int(r.waiting)} waiting), join-to-pair p50 / p99 (ms)`, only(`${int(r.pairsPerSecond)}, ${ms(r.p50)} / ${ms(r.p99)}`)]);
  }
  if (f.history) {
    const { result: h, options: o } = f.history;
    const total = short(o.big + o.small + o.filler);
    const cell = (small: string, big: string) => `${ms(h[small]?.p99 ?? NaN)} / ${ms(h[big]?.p99 ?? NaN)}`;
    rows.push([`history page p99 (ms), user with ${short(o.small)} / ${short(o.big)} messages, ${total} in the file`, only(cell("history small", "history big"))]);
    rows.push([`chat list p99 (ms), user with ${short(o.small)} / ${short(o.big)} messages, ${total} in the file`, only(cell("chat list small", "chat list big"))]);
  }
  return [
    `| figure | ${SYSTEMS.map((s) => LABELS[s]).join(" | ")} |`,
    `|---|${SYSTEMS.map(() => "---").join("|")}|`,
    ...rows.map(([name, cells]) => `| ${name} | ${SYSTEMS.map((s) => cells[s]).join(" | ")} |`),
  ].join("\n");
}
