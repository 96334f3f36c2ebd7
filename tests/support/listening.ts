// One app on a random port for a whole test file (or describe block), and users who are signed in
// with an open socket:
//
//   const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });   // listens in beforeAll, closes in afterAll
//   const ann = await connectedUser(t, { name: "Ann" });      // inside a test: ann.token, ann.user, ann.s
import { afterAll, beforeAll } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "./app.ts";
import { connect, type TestSocket } from "./ws.ts";

export interface ListeningApp extends TestApp {
  url: string;
  wsUrl: string;
}

/** A test app that listens on a random port from beforeAll to afterAll; read its address inside tests. */
export function listeningApp(env: Record<string, string> = {}): ListeningApp {
  const app = makeTestApp(env);
  let address: ReturnType<TestApp["listen"]> | undefined;
  const listening = () => {
    if (!address) throw new Error("listeningApp's address is read before its beforeAll ran");
    return address;
  };
  beforeAll(() => {
    address = app.listen();
  });
  afterAll(() => app.close());

  return {
    ...app,
    listen: listening,
    get url() {
      return listening().url;
    },
    get wsUrl() {
      return listening().wsUrl;
    },
  };
}

export type ConnectedUser = Awaited<ReturnType<typeof registerUser>> & { s: TestSocket };

/** Closes each person's socket. */
export const closeSockets = (...people: { s: TestSocket }[]) => people.forEach((p) => p.s.close());

/** Registers a user (`profile` overrides the defaults of registerUser) and opens one socket for them. */
export async function connectedUser(t: ListeningApp, profile: Record<string, unknown> = {}): Promise<ConnectedUser> {
  const registered = await registerUser(t, profile);
  return { ...registered, s: await connect(t.wsUrl, registered.token) };
}
