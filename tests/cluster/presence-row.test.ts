// Presence as strangers see it (the users row, `is_online` in every list and profile, and
// hub.isShown) across two instances: the instance that announces a change is the one whose
// command made it, which need not be the one that showed the user online. A user who came online
// through A and whose last tab closes on B must go offline in the row, and both instances must
// agree on what strangers were shown (src/realtime/public-presence.ts, the bus topic
// presence.shown). Found by tests/cluster/faults.test.ts (a dead instance's users stayed online in
// the row); this is the everyday case of the same fault, and an instance started later (a rolling restart)
// reads whom the rows show online.
import { expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";

const ENV = { PRESENCE_GRACE_SECONDS: "0", PROFILE_RATE_LIMIT: "100000" };
const { engine, a, b, urlA, urlB, socket: on } = twoInstancesForFile(ENV);

/** `is_online` in the users row, as a stranger reads it through `app`. */
async function rowOnline(app: TestApp, asker: string, id: number): Promise<boolean> {
  const r = await app.call("GET", `/api/users/${id}`, { token: asker });
  expect(r.status).toBe(200);
  return (r.body as { user: { is_online: boolean } }).user.is_online;
}

test("online through A, last tab closed on B: offline in the users row and shown offline on both instances", async () => {
  const dana = await registerUser(a, { name: "Dana Tabs" });
  const stranger = await registerUser(b, { name: "Evan Reads" });
  const onA = await on(urlA, dana.token);
  await until(async () => (await rowOnline(b, stranger.token, dana.user.id)) && a.ctx.hub.isShown(dana.user.id), "Dana online in the users row", undefined, 20);
  // A second tab on B, then the first (on A) closes: still online, nothing changes.
  const onB = await on(urlB, dana.token);
  await until(() => b.ctx.hub.socketCount(dana.user.id) === 1, "B holding Dana's tab");
  await Promise.all([a.ctx.ports.settled(), b.ctx.ports.settled()]);
  onA.close();
  await until(() => a.ctx.hub.socketCount(dana.user.id) === 0, "A letting go of Dana's tab");
  await Promise.all([a.ctx.ports.settled(), b.ctx.ports.settled()]);
  expect(await rowOnline(a, stranger.token, dana.user.id)).toBe(true);
  // The last tab closes on B: B announces it, and B never showed Dana (A did).
  onB.close();
  await until(async () => !(await rowOnline(a, stranger.token, dana.user.id)), "Dana offline in the users row", undefined, 20);
  await until(() => !a.ctx.hub.isShown(dana.user.id) && !b.ctx.hub.isShown(dana.user.id), "Dana shown offline on both instances");
});

test("an instance started later knows whom the others showed: a user's last tab closing on it takes them offline in the row", async () => {
  const erin = await registerUser(a, { name: "Erin Early" });
  const reader = await registerUser(b, { name: "Finn Reads" });
  const onA = await on(urlA, erin.token);
  await until(async () => await rowOnline(b, reader.token, erin.user.id), "Erin online in the users row", undefined, 20);
  // A third instance starts now, as one does in a rolling restart, and Erin opens a tab on it.
  const c = makeTestApp(ENV, { ports: engine.instance(), dataDir: a.dataDir });
  try {
    await Promise.all([c.ctx.ports.ready(), c.ready]);
    expect(c.ctx.hub.isShown(erin.user.id)).toBe(true);
    const onC = await on(c.listen().wsUrl, erin.token);
    await until(() => c.ctx.hub.socketCount(erin.user.id) === 1, "C holding Erin's tab");
    await Promise.all([a.ctx.ports.settled(), c.ctx.ports.settled()]);
    onA.close();
    await until(() => a.ctx.hub.socketCount(erin.user.id) === 0, "A letting go of Erin's tab");
    await Promise.all([a.ctx.ports.settled(), c.ctx.ports.settled()]);
    // The last tab closes on C, which started after A showed Erin online.
    onC.close();
    await until(async () => !(await rowOnline(b, reader.token, erin.user.id)), "Erin offline in the users row", undefined, 20);
  } finally {
    await c.close();
  }
});
