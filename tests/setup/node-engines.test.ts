// The oldest Node.js this project promises (package.json "engines", the one place it is stated)
// must satisfy every installed package's own "engines", or `npm install` greets a newcomer with
// EBADENGINE warnings. The lockfile records each package's engines, so no install is needed.
import { expect, test } from "bun:test";
import lock from "../../package-lock.json";
import pkg from "../../package.json";

const oldestNode = pkg.engines.node.replace(/^>=\s*/, "");
const full = (version: string) => [...version.split("."), "0", "0"].slice(0, 3).join(".");

test("the promised Node.js version is a plain lower bound", () => {
  expect(pkg.engines.node).toMatch(/^>=\s*\d+(\.\d+){0,2}$/);
});

test("every locked package runs on the oldest promised Node.js", () => {
  const refused = Object.entries(lock.packages as Record<string, { engines?: { node?: string } | string[] }>)
    .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
    .filter(([, entry]) => !Bun.semver.satisfies(full(oldestNode), (entry.engines as { node: string }).node))
    .map(([name, entry]) => `${name.replace(/^.*node_modules\//, "")} wants node ${(entry.engines as { node: string }).node}`);
  expect(refused).toEqual([]);
});
