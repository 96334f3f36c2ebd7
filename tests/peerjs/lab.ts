// Runs one scenario against a signalling server and writes down what each client saw, with the
// run's unique id prefix removed, so that transcripts from peer and from ours can be compared.
import { closeOf, openPeerSocket, type PeerTestSocket } from "./client.ts";

export interface Server {
  name: string;
  httpUrl: string;
  wsUrl: string;
  /** Sent with every upgrade (our server wants the session cookie). */
  headers: Record<string, string>;
}

export interface Query {
  id?: string;
  token?: string;
  key?: string;
}

let runs = 0;
let markers = 0;

export class Transcript {
  readonly lines: string[] = [];
  private readonly sockets: PeerTestSocket[] = [];
  /** Peer ids of one run start with this, so runs never meet on a shared server. */
  private readonly prefix = `r${Date.now().toString(36)}x${++runs}-`;

  constructor(readonly server: Server) {}

  id(name: string): string {
    return this.prefix + name;
  }

  /** A socket for `name` with the browser client's query; `query` overrides or removes parts. */
  open(name: string, token = "tok", query: Query = { id: this.id(name), token, key: "peerjs" }): PeerTestSocket {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
    params.set("version", "1.5.5");
    const socket = openPeerSocket(`${this.server.wsUrl}/peerjs/peerjs?${params}`, this.server.headers);
    this.sockets.push(socket);
    return socket;
  }

  /** Opens two sockets at once, then writes down each one's first frame (OPEN). */
  async pair(first: string, second: string): Promise<[PeerTestSocket, PeerTestSocket]> {
    const a = this.open(first);
    const b = this.open(second);
    await this.frame(first, a);
    await this.frame(second, b);
    return [a, b];
  }

  private clean(text: string): string {
    return text.replaceAll(this.prefix, "");
  }

  async frame(who: string, socket: PeerTestSocket, timeoutMs = 2000): Promise<void> {
    try {
      this.lines.push(`${who} <- ${this.clean(await socket.next(timeoutMs))}`);
    } catch {
      this.lines.push(`${who} got nothing in ${timeoutMs} ms`);
    }
  }

  /**
   * Opens `name` again and again until the server has let go of the id (an earlier holder left
   * or closed), then writes down that socket's first frame as `who`'s. Attempts that meet
   * ID-TAKEN are closed and not written down: only the end state is compared, not how fast a
   * loaded machine got there. After `timeoutMs` it writes down that the id stayed taken.
   */
  async reopen(who: string, name: string, token = "tok", timeoutMs = 10_000): Promise<PeerTestSocket | null> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const socket = this.open(name, token);
      let text: string;
      try {
        text = await socket.next(Math.max(1, deadline - Date.now()));
      } catch {
        break;
      }
      if (!text.includes('"ID-TAKEN"')) {
        this.lines.push(`${who} <- ${this.clean(text)}`);
        return socket;
      }
      socket.close();
      await closeOf(socket);
    }
    this.lines.push(`${who}: ${name}'s id still taken after ${timeoutMs} ms`);
    return null;
  }

  /**
   * Writes down every frame that arrives before a marker the socket sends itself (a CANDIDATE to
   * its own id, which the server relays back in order), or that none did. For a socket that holds
   * `name`'s id; one that does not would never get the marker back.
   */
  async quietBeforeMarker(who: string, name: string, socket: PeerTestSocket, timeoutMs = 10_000): Promise<void> {
    const marker = `marker-${++markers}`;
    if (!(await socket.opened)) {
      this.lines.push(`${who} closed before it could mark`);
      return;
    }
    socket.send({ type: "CANDIDATE", dst: this.id(name), payload: { marker } });
    const frames: string[] = [];
    for (;;) {
      let text: string;
      try {
        text = await socket.next(timeoutMs);
      } catch {
        frames.push(`(no marker back within ${timeoutMs} ms)`);
        break;
      }
      if (text.includes(`"${marker}"`)) break;
      frames.push(text);
    }
    if (frames.length === 0) this.lines.push(`${who} silent`);
    for (const text of frames) this.lines.push(`${who} <- ${this.clean(text)}`);
  }

  /** Writes down every frame arriving within `ms`, or that none did (for a socket that cannot mark). */
  async quiet(who: string, socket: PeerTestSocket, ms = 150): Promise<void> {
    const frames = await socket.drain(ms);
    if (frames.length === 0) this.lines.push(`${who} silent`);
    for (const text of frames) this.lines.push(`${who} <- ${this.clean(text)}`);
  }

  async closed(who: string, socket: PeerTestSocket, timeoutMs = 2000): Promise<void> {
    this.lines.push(`${who} ${await closeOf(socket, timeoutMs)}`);
  }

  state(who: string, socket: PeerTestSocket): void {
    this.lines.push(`${who} ${socket.isClosed() ? "closed" : "open"}`);
  }

  note(line: string): void {
    this.lines.push(line);
  }

  async finish(): Promise<string[]> {
    for (const socket of this.sockets) socket.close();
    // Ours counts peers per session (all scenarios share one): the next scenario must not meet
    // this one's sockets still open. Each wait is bounded.
    await Promise.all(this.sockets.map((socket) => closeOf(socket)));
    return this.lines;
  }
}

export type Scenario = (t: Transcript) => Promise<void>;

/** Runs the scenario against every server at once; returns each one's transcript, in order. */
export async function runAll(servers: Server[], scenario: Scenario): Promise<string[][]> {
  const run = async (server: Server) => {
    const t = new Transcript(server);
    try {
      await scenario(t);
    } finally {
      await t.finish();
    }
    return t.lines;
  };
  return Promise.all(servers.map(run));
}
