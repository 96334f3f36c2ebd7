// The final Markdown table: rows are figures, columns the systems that ran (SQLite's three, then
// PostgreSQL's); each message figure is the median over the rounds. The ratio rows divide the
// project by each column on the same engine: project / peer and project / floor under the SQLite
// columns, project-pg / peer-pg and project-pg / floor-pg under the PostgreSQL ones (the goals).
import type { HistoryResult } from "../load/history.ts";
import type { MessageResult } from "../load/messages.ts";
import type { RouletteResult } from "../load/roulette.ts";
import type { SocketsResult } from "../load/sockets.ts";
import type { ClusterFigures } from "./cluster.ts";
import type { HistoryOptions } from "./project-only.ts";
import { kindOf, LABELS, onPostgres, type SystemName } from "./systems.ts";

export interface Figures {
  /** Per system, per socket count, one result per round. */
  messages: Record<SystemName, Map<number, MessageResult[]>>;
  /** Per system, the paced runs (offered rate over the larger socket count), one per round. */
  paced: Record<SystemName, MessageResult[]>;
  sockets: Partial<Record<SystemName, SocketsResult>>;
  /** The project holding as many idle sockets as the open-files limit lets one process hold. */
  held?: HeldResult;
  roulette?: RouletteResult;
  /** Per engine's project. */
  history: Partial<Record<"project" | "project-pg", { result: HistoryResult; options: HistoryOptions }>>;
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
  return median((f.messages[system]?.get(sockets) ?? []).map(pick));
}

/** The project on the column's engine: what the ratio rows divide by the column. */
const projectOf = (s: SystemName): SystemName => (onPostgres(s) ? "project-pg" : "project");

export interface Shape {
  socketCounts: number[];
  offered: number;
  idle: number;
  openLimitS: number;
}

/** `columns`: the systems that ran, in SYSTEMS order. */
export function table(f: Figures, columns: SystemName[], { socketCounts, offered, idle: idleCount, openLimitS }: Shape): string {
  const rows: [string, Partial<Record<SystemName, string>>][] = [];
  const each = (cell: (s: SystemName) => string) => Object.fromEntries(columns.map((s) => [s, cell(s)])) as Record<SystemName, string>;
  const only = (project: string): Partial<Record<SystemName, string>> => ({ project });
  // Only the parts that ran: a run of PARTS=history has no message rows to show.
  if (columns.some((s) => (f.messages[s]?.size ?? 0) > 0)) {
    for (const n of socketCounts) {
      rows.push([`messages stored + delivered per second, ${int(n)} sockets`, each((s) => int(messageFigure(f, s, n, (r) => r.deliveredPerSecond)))]);
      rows.push([`ack latency p50 / p99 (ms), ${int(n)} sockets`, each((s) => `${ms(messageFigure(f, s, n, (r) => r.ackP50))} / ${ms(messageFigure(f, s, n, (r) => r.ackP99))}`)]);
    }
    if (offered > 0) {
      const paced = (s: SystemName, pick: (r: MessageResult) => number) => median((f.paced[s] ?? []).map(pick));
      rows.push([
        `${int(offered)} messages/s offered over ${int(socketCounts.at(-1)!)} sockets: achieved, ack p50 / p99 (ms)`,
        each((s) => `${int(paced(s, (r) => r.deliveredPerSecond))}, ${ms(paced(s, (r) => r.ackP50))} / ${ms(paced(s, (r) => r.ackP99))}`),
      ]);
    }
    rows.push([`server CPU per message (us), ${socketCounts.map(int).join(" / ")} sockets`, each((s) => socketCounts.map((n) => int(messageFigure(f, s, n, (r) => r.cpuPerMessageUs))).join(" / "))]);
    if (columns.some(onPostgres)) {
      // All the server's processes: whatever else uses that server meanwhile counts too (read it on a quiet machine).
      const cell = (s: SystemName) => (onPostgres(s) ? socketCounts.map((n) => int(messageFigure(f, s, n, (r) => r.databaseCpuPerMessageUs))).join(" / ") : "–");
      rows.push([`PostgreSQL server CPU per message (us, all its processes), ${socketCounts.map(int).join(" / ")} sockets`, each(cell)]);
    }
    const most = socketCounts.at(-1)!;
    rows.push([`server RSS during the ${int(most)}-socket run (MB)`, each((s) => int(messageFigure(f, s, most, (r) => r.rssKb / 1024)))]);
    for (const n of socketCounts) {
      const rate = (s: SystemName) => messageFigure(f, s, n, (r) => r.deliveredPerSecond);
      rows.push([`this project on the column's engine ÷ column, messages per second, ${int(n)} sockets`, each((s) => (kindOf(s) === "project" ? "1" : ratio(rate(projectOf(s)), rate(s))))]);
    }
    const cpu = (s: SystemName) => messageFigure(f, s, most, (r) => r.cpuPerMessageUs);
    rows.push([`this project on the column's engine ÷ column, CPU per message, ${int(most)} sockets`, each((s) => (kindOf(s) === "project" ? "1" : ratio(cpu(projectOf(s)), cpu(s))))]);
  }
  if (Object.keys(f.sockets).length > 0) {
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
  }
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
  const ran = (["project", "project-pg"] as const).filter((s) => f.history[s]);
  const o = ran.map((s) => f.history[s]!.options)[0];
  if (o) {
    const total = short(o.big + o.small + o.filler);
    const cells = (small: string, big: string) =>
      Object.fromEntries(ran.map((s) => [s, `${ms(f.history[s]!.result[small]?.p99 ?? NaN)} / ${ms(f.history[s]!.result[big]?.p99 ?? NaN)}`]));
    rows.push([`history page p99 (ms), user with ${short(o.small)} / ${short(o.big)} messages, ${total} in the table`, cells("history small", "history big")]);
    rows.push([`chat list p99 (ms), user with ${short(o.small)} / ${short(o.big)} messages, ${total} in the table`, cells("chat list small", "chat list big")]);
  }
  // Held sockets, roulette and history may run for a project whose message figures did not.
  const projects: SystemName[] = [...(f.held || f.roulette ? (["project"] as const) : []), ...ran];
  const shown = [...columns, ...projects.filter((s, i) => !columns.includes(s) && projects.indexOf(s) === i)];
  return [
    `| figure | ${shown.map((s) => LABELS[s]).join(" | ")} |`,
    `|---|${shown.map(() => "---").join("|")}|`,
    ...rows.map(([name, cells]) => `| ${name} | ${shown.map((s) => cells[s] ?? "–").join(" | ")} |`),
  ].join("\n");
}

/** The cluster run's own small table: one column, two instances + HAProxy + Redis + PostgreSQL; medians over rounds. */
export function clusterTable(c: ClusterFigures): string {
  const o = c.options;
  const rows: [string, string][] = [];
  const mid = (list: MessageResult[], pick: (r: MessageResult) => number) => median(list.map(pick));
  if (c.messages.length > 0) {
    const m = c.messages;
    rows.push([`messages stored + delivered per second, ${int(o.sockets)} sockets, every pair split across the instances (through HAProxy, steered)`, int(mid(m, (r) => r.deliveredPerSecond))]);
    rows.push([`ack latency p50 / p99 (ms), same run`, `${ms(mid(m, (r) => r.ackP50))} / ${ms(mid(m, (r) => r.ackP99))}`]);
    const extra = (label: string) => int(mid(m, (r) => r.extraCpuPerMessageUs[label] ?? NaN));
    rows.push([`CPU per message (us): app1 / app2 / redis-server / HAProxy / PostgreSQL (all its processes), same run`, `${int(mid(m, (r) => r.cpuPerMessageUs))} / ${extra("app2")} / ${extra("redis")} / ${extra("haproxy")} / ${int(mid(m, (r) => r.databaseCpuPerMessageUs))}`]);
    const p = c.paced;
    rows.push([`${int(o.offered)} messages/s offered over ${int(o.sockets)} split sockets: achieved, ack p99 (ms)`, `${int(mid(p, (r) => r.deliveredPerSecond))}, ${ms(mid(p, (r) => r.ackP99))}`]);
    rows.push([`cross-instance delivery latency p50 / p99 (ms), send to the receiver's frame, at ${int(o.offered)}/s offered (goal p99 ≤ 20)`, `${ms(mid(p, (r) => r.deliveryP50))} / ${ms(mid(p, (r) => r.deliveryP99))}`]);
  }
  const pairings = (r: RouletteResult) => `${int(r.pairsPerSecond)}, ${ms(r.p50)} / ${ms(r.p99)}${r.timeouts ? `; ${int(r.timeouts)} waited over 5 s` : ""}`;
  if (c.roulette) {
    const r = c.roulette;
    rows.push([
      `roulette pairings per second across instances, every seeker searching again at once (${int(r.waiting)} waiting on app1, ${int(r.seekers)} seekers on app2), join-to-pair p50 / p99 (ms) (goal ≥ 5,000/s)`,
      pairings(r),
    ]);
  }
  if (c.roulettePaced) {
    const r = c.roulettePaced;
    rows.push([`roulette at ${int(r.offeredPerSecond ?? 0)} searches/s offered across instances: pairings per second, join-to-pair p50 / p99 (ms) from when each search fell due (goal p99 ≤ 50)`, pairings(r)]);
  }
  if (c.idle) {
    const [a, b] = c.idle as [SocketsResult, SocketsResult];
    const open = a.stillOpen! + b.stillOpen!;
    rows.push([
      `idle signed-in sockets still open after ${o.holdMs / 1000} s, of ${int(o.idle)} asked, straight to the instances (goal 30,000)`,
      `${int(open)} (${int(a.stillOpen!)} + ${int(b.stillOpen!)})`,
    ]);
    const kb = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
    const s = (ms?: number) => (ms === undefined ? "–" : (ms / 1000).toFixed(1));
    rows.push([`time to open them (s), app1 / app2, both at once: each user's first sign-in since start / again`, `${s(a.coldOpenMs)} / ${s(b.coldOpenMs)}; ${s(a.openMs)} / ${s(b.openMs)}`]);
    // Growth since before the first opening, each RSS read once the server had collected (the lowest
    // reading once it stops falling, bench/compare/proc.ts settledRssKb): what holding them costs, with the users' cached rows.
    rows.push([
      `RSS growth per idle socket since before the first opening (KB), app1 / app2: first opening (each user's first sign-in) / all closed and opened again (goal ≤ 5)`,
      `${kb(a.coldKbPerSocket ?? NaN)} / ${kb(b.coldKbPerSocket ?? NaN)}; ${kb(a.kbPerSocket)} / ${kb(b.kbPerSocket)}`,
    ]);
    rows.push([`server RSS with them held (MB), app1 / app2`, `${int(a.rssHeldKb! / 1024)} / ${int(b.rssHeldKb! / 1024)}`]);
  }
  return ["| cluster figure | 2 instances + HAProxy + Redis + PostgreSQL |", "|---|---|", ...rows.map(([name, cell]) => `| ${name} | ${cell} |`)].join("\n");
}
