// The test socket (ws.ts) over the long-polling fallback: the same send/next/ask, so a test can run
// the same conversation over either transport. It polls in a loop until closed.
import { frameInbox, frameMethods, type Frame, type TestSocket } from "./ws.ts";

export interface PollTestSocket extends Omit<TestSocket, "ws"> {
  sid: string;
  /** Polls stop (as a client gone away would); the session stays open on the server. */
  stopPolling(): void;
  /** Sends frames as given (any JSON) in one POST; answers the HTTP status. */
  post(frames: unknown, headers?: Record<string, string>): Promise<number>;
}

export async function openPoll(url: string, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/ws/poll/open`, { method: "POST", headers: { authorization: `Bearer ${token}`, ...headers } });
}

/**
 * `polling: false` opens the session without ever polling (a client gone quiet): a poll stopped
 * later could still be held by the server, which does not always learn that a request was aborted.
 */
export async function connectPolling(url: string, token: string, headers: Record<string, string> = {}, { polling: startPolling = true } = {}): Promise<PollTestSocket> {
  const opened = await openPoll(url, token, headers);
  if (opened.status !== 200) throw new Error(`poll open refused: ${opened.status} ${await opened.text()}`);
  const { sid } = (await opened.json()) as { sid: string };
  const auth = { authorization: `Bearer ${token}`, ...headers };
  const { frames, deliver, take } = frameInbox();
  let closeResolve!: (v: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (closeResolve = r));
  let polling = startPolling;
  const aborter = new AbortController();

  void (async () => {
    while (polling) {
      let response: Response;
      try {
        response = await fetch(`${url}/ws/poll?sid=${sid}`, { headers: auth, signal: aborter.signal });
      } catch {
        return;
      }
      if (response.status !== 200) {
        polling = false;
        closeResolve({ code: response.status, reason: await response.text() });
        return;
      }
      for (const frame of (await response.json()) as Frame[]) deliver(frame);
      const end = response.headers.get("x-poll-end");
      if (end) {
        polling = false;
        closeResolve({ code: Number(end), reason: response.headers.get("x-poll-end-reason") ?? "" });
      }
    }
  })();

  const post = async (body: unknown, extra: Record<string, string> = {}) => {
    const response = await fetch(`${url}/ws/poll/send?sid=${sid}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", ...extra },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };

  const send: PollTestSocket["send"] = (event, data = {}, ack) => void post([ack === undefined ? { event, data } : { event, data, ack }]);
  const socket: PollTestSocket = {
    sid,
    frames,
    post,
    send,
    raw: (text) => void post(`[${typeof text === "string" ? JSON.stringify(text) : "null"}]`),
    ...frameMethods({ frames, take }, send),
    closed,
    stopPolling() {
      polling = false;
      aborter.abort();
    },
    close() {
      polling = false;
      aborter.abort();
      void fetch(`${url}/ws/poll/close?sid=${sid}`, { method: "POST", headers: auth }).then((r) => r.arrayBuffer(), () => undefined);
    },
  };
  return socket;
}
