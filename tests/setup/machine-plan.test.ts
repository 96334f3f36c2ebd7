// `npm test` on a bare machine: it installs what the suites need where it can (Debian, root), and
// otherwise stops with one line naming what is missing and the command that fixes it.
import { describe, expect, test } from "bun:test";
import { plan } from "../../scripts/machine/plan.ts";
import { REQUIREMENTS, type Requirement } from "../../scripts/machine/requirements.ts";
import { ensurePostgres, fixFor, stopLine } from "../../scripts/machine/postgres.ts";

const chromium = REQUIREMENTS.find((r) => r.name === "Chromium")!;
const firefox = REQUIREMENTS.find((r) => r.name === "Firefox ESR")!;
const font = REQUIREMENTS.find((r) => r.debian.includes("fonts-noto-color-emoji"))!;
const twoFromOnePackage: Requirement[] = [
  { name: "a", for: "all", paths: ["/x"], debian: ["same"] },
  { name: "b", for: "all", paths: ["/y"], debian: ["same"] },
];

describe("the test machine's set-up plan", () => {
  test("has nothing to do when nothing is missing", () => {
    expect(plan([], { root: false, apt: false })).toEqual({ kind: "ready" });
  });

  test("installs Chromium and the emoji font with apt-get as root on Debian", () => {
    expect(plan([chromium, font], { root: true, apt: true })).toEqual({
      kind: "install",
      packages: ["chromium", "fonts-noto-color-emoji"],
      names: ["Chromium", "the colour emoji font"],
    });
  });

  test("installs Firefox ESR for the browser suites, with Chromium, in one apt-get", () => {
    expect(firefox).toMatchObject({ for: "e2e", paths: ["/usr/bin/firefox-esr"], debian: ["firefox-esr"] });
    const decided = plan([chromium, firefox], { root: true, apt: true });
    expect(decided.kind === "install" && decided.packages).toEqual(["chromium", "firefox-esr"]);
  });

  test("asks for each package once", () => {
    const decided = plan(twoFromOnePackage, { root: true, apt: true });
    expect(decided.kind === "install" && decided.packages).toEqual(["same"]);
  });

  test("stops with one line and the sudo command when not root", () => {
    const decided = plan([chromium], { root: false, apt: true });
    expect(decided.kind).toBe("stop");
    const line = decided.kind === "stop" ? decided.line : "";
    expect(line).not.toContain("\n");
    expect(line).toContain("Chromium");
    expect(line).toContain("sudo apt-get update && sudo apt-get install -y chromium");
  });

  test("stops with one line naming the Debian package where there is no apt-get", () => {
    const decided = plan([font], { root: true, apt: false });
    expect(decided.kind).toBe("stop");
    const line = decided.kind === "stop" ? decided.line : "";
    expect(line).not.toContain("\n");
    expect(line).toContain("the colour emoji font");
    expect(line).toContain("fonts-noto-color-emoji");
  });

  test("every requirement names the paths that prove it and the packages that bring them", () => {
    for (const r of REQUIREMENTS) {
      expect(r.paths.length).toBeGreaterThan(0);
      expect(r.debian.length).toBeGreaterThan(0);
      for (const path of r.paths) expect(path.startsWith("/")).toBe(true);
    }
  });
});

describe("the tests' PostgreSQL", () => {
  test("is installed with apt-get like the rest, for every run", () => {
    const postgres = REQUIREMENTS.find((r) => r.name === "PostgreSQL")!;
    expect(postgres).toMatchObject({ for: "all", debian: ["postgresql"] });
    const decided = plan([postgres], { root: false, apt: true });
    expect(decided.kind === "stop" && decided.line).toContain("sudo apt-get update && sudo apt-get install -y postgresql");
  });

  test("a stopped server is started and a missing role made as root; anything else stops with one line", () => {
    expect(fixFor({ code: "ECONNREFUSED" }, true)).toBe("start");
    expect(fixFor({ code: "28000" }, true)).toBe("role");
    expect(fixFor({ code: "28P01" }, true)).toBe("stop");
    expect(fixFor({ code: "ECONNREFUSED" }, false)).toBe("stop");
    const line = stopLine("postgres://root@127.0.0.1:5432/postgres", { code: "ECONNREFUSED", message: "connect ECONNREFUSED\n127.0.0.1:5432" });
    expect(line).not.toContain("\n");
    expect(line).toContain("pg_ctlcluster");
    expect(line).toContain("TEST_POSTGRES_URL");
  });

  test("the machine's server answers (tests/db/ needs it)", async () => {
    expect(await ensurePostgres()).toBe(true);
  });
});
