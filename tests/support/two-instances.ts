// Two whole apps in one test process as two instances of a cluster: one Redis key prefix
// (redisEngine) and one database (the same data folder: on the PostgreSQL pass one database, on
// the SQLite pass one file opened by both), each listening on a port of its own.
import { makeTestApp, type TestApp } from "./app.ts";
import { redisEngine, type Engine } from "./cluster.ts";

export interface TwoInstances {
  engine: Engine;
  a: TestApp;
  b: TestApp;
  urlA: string;
  urlB: string;
  /** Both apps closed, then the prefix's keys deleted (close the test's sockets first). */
  close(): Promise<void>;
}

/** Resolves once both instances hear each other and have read what they keep in memory. */
export async function twoInstances(env: Record<string, string>): Promise<TwoInstances> {
  const engine = redisEngine();
  const a = makeTestApp(env, { ports: engine.instance() });
  const b = makeTestApp(env, { ports: engine.instance(), dataDir: a.dataDir });
  await Promise.all([a.ctx.ports.ready(), b.ctx.ports.ready(), a.ready, b.ready]);
  return {
    engine,
    a,
    b,
    urlA: a.listen().wsUrl,
    urlB: b.listen().wsUrl,
    async close() {
      await b.close();
      await a.close();
      await engine.cleanup();
    },
  };
}
