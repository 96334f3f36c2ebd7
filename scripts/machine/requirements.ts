// What the test suites need from the machine beyond node_modules, and where Debian has it. Later
// suites add theirs here (PostgreSQL, Redis, coturn, HAProxy), each with the files that prove it is
// installed and the Debian packages that install it.

export interface Requirement {
  /** What a person would call it, for the one line printed when it is missing. */
  name: string;
  /** Which part of `npm test` needs it ("e2e": only the browser suites). */
  for: "all" | "e2e";
  /** Installed when every one of these paths exists. */
  paths: string[];
  /** Debian packages that provide those paths. */
  debian: string[];
}

export const REQUIREMENTS: Requirement[] = [
  { name: "Chromium", for: "e2e", paths: ["/usr/bin/chromium"], debian: ["chromium"] },
  // The cross-browser suite drives it with puppeteer-core over WebDriver BiDi (tests/e2e/support/firefox.ts).
  { name: "Firefox ESR", for: "e2e", paths: ["/usr/bin/firefox-esr"], debian: ["firefox-esr"] },
  {
    // Without it flags and emoji render as empty boxes, and the screenshots the tests take show it.
    name: "the colour emoji font",
    for: "e2e",
    paths: ["/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"],
    debian: ["fonts-noto-color-emoji"],
  },
  // The storage tests (tests/db/) make a fresh database per file on the server at TEST_POSTGRES_URL
  // (default postgres://root@127.0.0.1:5432/postgres); scripts/machine/postgres.ts then starts
  // a stopped cluster and makes the role, or names the fix in one line.
  { name: "PostgreSQL", for: "all", paths: ["/usr/bin/pg_lsclusters", "/usr/bin/pg_ctlcluster"], debian: ["postgresql"] },
  // The cluster tests (tests/cluster/) share one Redis with a key prefix each; scripts/machine/redis.ts
  // starts it when it does not answer, or names the fix in one line.
  { name: "Redis", for: "all", paths: ["/usr/bin/redis-server"], debian: ["redis-server"] },
  // The cluster tests through a balancer (tests/cluster/haproxy.test.ts, PostgreSQL pass) run
  // deploy/haproxy.cfg in Debian's HAProxy on a free port (tests/support/cluster-harness.ts).
  { name: "HAProxy", for: "all", paths: ["/usr/sbin/haproxy"], debian: ["haproxy"] },
  // The relay browser suite (tests/e2e/relay.e2e.ts) starts its own coturn on a free port.
  { name: "coturn (TURN relay)", for: "e2e", paths: ["/usr/bin/turnserver"], debian: ["coturn"] },
];
