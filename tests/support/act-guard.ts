// Preloaded for every test file (bunfig.toml). React counts the act() calls in progress in a
// variable of its own module, and every test file in the process shares that module. A test that
// times out inside `await act(async …)` leaves that count above zero; if the next test's act()
// overlaps the late one, the count never comes back to zero, and every act() after it queues
// renders it never runs: every component test in every later file renders nothing (stop 34's CI:
// one slow test, then 117 failures). So after each test, whatever act() it left running is given
// time to finish before the next test starts, and a scope that never closes is named once.
import { afterEach } from "bun:test";
import * as React from "react";
import { until } from "./until.ts";

export const ACT_SETTLE_MS = 30_000;

interface ActInternals {
  actQueue: unknown[] | null;
}
const internals = (React as unknown as { __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE: ActInternals })
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;

/** True while an act() scope is open. React keeps the count to itself, so an empty synchronous
 * act() asks: at the outermost level it runs and clears its queue; inside a scope still open (or
 * one whose count was left above zero) it leaves the queue there. */
export function actScopeOpen(): boolean {
  React.act(() => {});
  return internals.actQueue !== null;
}

afterEach(() => until(() => !actScopeOpen(), "the act() this test left running to finish", ACT_SETTLE_MS, 10), ACT_SETTLE_MS + 5_000);
