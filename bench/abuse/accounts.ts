// Accounts and ordinary (reading) sockets for the abuse bench. Every client names its address in
// X-Forwarded-For (the server runs with TRUST_PROXY), so that per-address caps see many clients.
import { rawUpgrade, socketPath } from "../../tests/support/raw-ws.ts";
import type { BenchServer } from "./server.ts";

export interface Account {
  id: number;
  token: string;
  address: string;
}

/** 10.<group>.<n / 250>.<n % 250 + 1>: a distinct made-up client address per index. */
export const address = (group: number, n: number): string => `10.${group}.${Math.floor(n / 250)}.${(n % 250) + 1}`;

export async function guest(server: BenchServer, clientAddress: string): Promise<Account> {
  const r = await fetch(`${server.http}/api/guest/create`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": clientAddress },
    body: JSON.stringify({ gender: "female", adult: true }),
  });
  if (r.status !== 201) throw new Error(`guest creation answered ${r.status}: ${await r.text()}`);
  const { data } = (await r.json()) as { data: { token: string; user: { id: number } } };
  return { id: data.user.id, token: data.token, address: clientAddress };
}

export interface Frame {
  event?: string;
  ack?: number;
  data?: { userId?: number } & Record<string, unknown>;
  error?: { code: string };
}

/** A socket that reads everything; `onFrame` sees each parsed frame. */
export interface Reader {
  /** Sends an event with an ack and resolves with the answer's error code, or null when it succeeded. */
  request(event: string, data: object): Promise<string | null>;
  close(): void;
}

export async function openReader(server: BenchServer, account: Account, onFrame: (frame: Frame) => void = () => {}): Promise<Reader> {
  const socket = await rawUpgrade(server.port, socketPath(account.token), { "x-forwarded-for": account.address });
  if (socket.status !== 101) {
    socket.destroy();
    throw new Error(`a reading socket was refused with ${socket.status}`);
  }
  const waiting = new Map<number, (code: string | null) => void>();
  let nextAck = 1;
  socket.onText((text) => {
    const frame = JSON.parse(text) as Frame;
    if (frame.ack !== undefined && frame.event === undefined) {
      waiting.get(frame.ack)?.(frame.error?.code ?? null);
      waiting.delete(frame.ack);
    }
    onFrame(frame);
  });
  const answerAll = (code: string) => {
    for (const done of waiting.values()) done(code);
    waiting.clear();
  };
  void socket.closed.then(() => answerAll("closed"));
  return {
    request: (event, data) =>
      new Promise((done) => {
        const ack = nextAck++;
        waiting.set(ack, done);
        socket.sendText(JSON.stringify({ event, data, ack }));
      }),
    close: () => {
      answerAll("closed");
      socket.close();
    },
  };
}

/** How many of each outcome: `{101: 990, 429: 10}`. */
export function tally<K extends string | number>(items: K[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(item)] = (counts[String(item)] ?? 0) + 1;
  return counts;
}
