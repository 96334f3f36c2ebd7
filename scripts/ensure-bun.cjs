// Bun arrives from the npm registry. Its `node_modules/.bin/bun` shim only works after bun's
// postinstall ran; when scripts were skipped (`--ignore-scripts`), run that postinstall now so
// `npm start` and `npm test` work on a fresh clone with nothing but Node.js and npm.
const { execFileSync } = require("node:child_process");
const path = require("node:path");

function bunWorks() {
  try {
    execFileSync(path.join(__dirname, "..", "node_modules", ".bin", "bun"), ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

if (!bunWorks()) {
  execFileSync(process.execPath, [require.resolve("bun/install.js")], { stdio: "inherit" });
  if (!bunWorks()) {
    console.error("bun could not be set up from node_modules/bun; run `npm install` again.");
    process.exit(1);
  }
}
