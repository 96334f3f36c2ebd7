// Two whole apps in one test process as two instances of a cluster: one Redis key prefix
// (redisEngine) and one database (the same data folder: on the PostgreSQL pass one database, on
// the SQLite pass one file opened by both), each listening on a port of its own.
//
//   const { a, b, urlA, urlB, player } = twoInstancesForFile(ENV);  // made now, ready in beforeAll, closed in afterAll
//   const ann = await player(a, { country_code: "FR" });             // inside a test: ann.token, ann.user, ann.s
//
// A file's own beforeAll or afterAll runs before the pair's when it is registered before this call,
// after it when registered after (bun runs them in the order they were registered).
import { afterAll, beforeAll } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "./app.ts";
import { redisEngine, type Engine } from "./cluster.ts";
import { until } from "./until.ts";
import { connect, type TestSocket } from "./ws.ts";
import type { ClusterRoulette } from "../../src/roulette/cluster.ts";

type Person = Awaited<ReturnType<typeof registerUser>>;

/** Someone signed up, with one socket (`s`); `heard` keeps every raw frame it received. */
export type Player = Person & { s: TestSocket; heard: string[] };

export interface TwoInstances {
  engine: Engine;
  a: TestApp;
  b: TestApp;
  urlA: string;
  urlB: string;
  /** Every socket opened through socket(), tab() or player(), closed or not. */
  sockets: readonly TestSocket[];
  /** A socket on `url` (a third instance's too), closed after the tests, before the instances. */
  socket(url: string, token: string): Promise<TestSocket>;
  /**
   * A socket of `person` on `app` (a or b), once `app` holds it and its ports applied the note:
   * Redis does not run two instances' commands in the order they were sent, so an event the other
   * instance sends before then could find nobody there (the fan-out is at most once; the store is
   * what counts).
   */
  tab(app: TestApp, person: Person): Promise<TestSocket>;
  /** tab(), once the other instance, too, finds the person held there (it asks Redis). */
  tabKnownToBoth(app: TestApp, person: Person): Promise<TestSocket>;
  /** Someone signed up on `app` (`profile` over registerUser's defaults) with a tab() there; `url` when `app` is a third instance. */
  player(app: TestApp, profile?: Record<string, unknown>, url?: string): Promise<Player>;
}

/**
 * Two instances for the tests of a file (or of a describe block): made at once, so their names can
 * be taken apart at the top of the file; ready (each hears the other and has read what it keeps in
 * memory) in beforeAll; in afterAll every socket opened through them closed, then both apps, then
 * the prefix's keys deleted.
 */
export function twoInstancesForFile(env: Record<string, string>): TwoInstances {
  const engine = redisEngine();
  const a = makeTestApp(env, { ports: engine.instance() });
  const b = makeTestApp(env, { ports: engine.instance(), dataDir: a.dataDir });
  const urlA = a.listen().wsUrl;
  const urlB = b.listen().wsUrl;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    await Promise.all([a.ctx.ports.ready(), b.ctx.ports.ready(), a.ready, b.ready]);
  });
  afterAll(async () => {
    for (const socket of open) socket.close();
    await b.close();
    await a.close();
    await engine.cleanup();
  });

  const urlOf = (app: TestApp): string => {
    if (app !== a && app !== b) throw new Error("a third instance's socket needs its url");
    return app === a ? urlA : urlB;
  };
  const socket = async (url: string, token: string): Promise<TestSocket> => {
    const opened = await connect(url, token);
    open.push(opened);
    return opened;
  };
  const held = async (app: TestApp, userId: number): Promise<void> => {
    await until(() => app.ctx.hub.socketCount(userId) >= 1, "the socket registered on its instance");
    await app.ctx.ports.settled();
  };
  const tab = async (app: TestApp, person: Person): Promise<TestSocket> => {
    const opened = await socket(urlOf(app), person.token);
    await held(app, person.user.id);
    return opened;
  };

  return {
    engine,
    a,
    b,
    urlA,
    urlB,
    sockets: open,
    socket,
    tab,
    async tabKnownToBoth(app, person) {
      const opened = await tab(app, person);
      const other = app === a ? b : a;
      await until(() => other.ctx.ports.fanOut.heldElsewhere(person.user.id), "the other instance hears of the socket");
      return opened;
    },
    async player(app, profile = {}, url = urlOf(app)) {
      const registered = await registerUser(app, profile);
      const s = await socket(url, registered.token);
      const heard: string[] = [];
      s.ws.addEventListener("message", (e) => heard.push(String(e.data)));
      await held(app, registered.user.id);
      return { ...registered, s, heard };
    },
  };
}

export const clusterRoulette = (app: TestApp) => app.ctx.roulette as ClusterRoulette;

/** Resolves once one of `apps` holds the matchmaker's lease: a search sent before then waits for one, and may end `unavailable`. */
export const matchmakerChosen = (...apps: TestApp[]): Promise<void> =>
  until(() => apps.some((app) => clusterRoulette(app).leading), "one instance is the matchmaker");
