// axe-core on a page as it is now (WCAG 2.0, 2.1 and 2.2 A and AA rules): shared by the
// accessibility suite and the suites of screens that must stay accessible (interests, issue 24).
import { expect } from "bun:test";
import { AxeBuilder } from "@axe-core/playwright";
import type { Result } from "axe-core";
import type { Page } from "playwright-core";

export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const FAILING_IMPACTS = new Set(["serious", "critical"]);
/**
 * Third-party widgets left out of the checks, each a selector with the reason next to it. None is
 * needed today: the emoji picker (emoji-picker-react) passes as it is.
 */
const EXCLUDED: string[] = [];
function describeViolation(violation: Result): string {
  const nodes = violation.nodes.map((node) => `    at ${node.target.join(" ")}\n      ${(node.failureSummary ?? "").replace(/\n/g, "\n      ")}`);
  return `${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join("\n")}`;
}

/** Runs axe on the page as it is now; fails with a readable list of serious and critical violations. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  for (const selector of EXCLUDED) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const failing = violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? ""));
  const report = failing.map(describeViolation).join("\n");
  if (report) console.error(`axe on ${screen}:\n${report}`);
  expect(report).toBe("");
}

