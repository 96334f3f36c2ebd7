// One app on a random port for a whole test file (or describe block), and users who are signed in
// with an open socket:
//
//   const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });   // beforeAll starts it, afterAll closes it
//   const ann = await connectedUser(t, { name: "Ann" });      // inside a test: ann.token, ann.user, ann.s
import { afterAll, beforeAll } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "./app.ts";
import { connect, type TestSocket } from "./ws.ts";

export interface ListeningApp extends TestApp {
  url: string;
  wsUrl: string;
  port: number;
}

/** A test app that listens from beforeAll to afterAll. Its fields can be read once beforeAll has run. */
export function listeningApp(env: Record<string, string> = {}): ListeningApp {
  let started: { app: TestApp; address: ReturnType<TestApp["listen"]> } | undefined;
  const get = () => {
    if (!started) throw new Error("listeningApp is read before its beforeAll ran");
    return started;
  };
  beforeAll(() => {
    const app = makeTestApp(env);
    started = { app, address: app.listen() };
  });
  afterAll(() => get().app.close());

  return {
    get ctx() {
      return get().app.ctx;
    },
    get app() {
      return get().app.app;
    },
    get dataDir() {
      return get().app.dataDir;
    },
    call: (method, path, options) => get().app.call(method, path, options),
    listen: () => get().address,
    close: () => get().app.close(),
    get url() {
      return get().address.url;
    },
    get wsUrl() {
      return get().address.wsUrl;
    },
    get port() {
      return get().address.port;
    },
  };
}

export type ConnectedUser = Awaited<ReturnType<typeof registerUser>> & { s: TestSocket };

/** Registers a user (`profile` overrides the defaults of registerUser) and opens one socket for them. */
export async function connectedUser(t: ListeningApp, profile: Record<string, unknown> = {}): Promise<ConnectedUser> {
  const registered = await registerUser(t, profile);
  return { ...registered, s: await connect(t.wsUrl, registered.token) };
}
