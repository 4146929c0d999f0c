// Runs the wasm-bindgen-test suites (tests/web.rs) in headless Chromium through chromedriver.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromedriver = process.env.CHROMEDRIVER ?? "/usr/bin/chromedriver";
if (!existsSync(chromedriver)) {
  console.error(`test-browser: no chromedriver at ${chromedriver}; run scripts/setup in the repository root`);
  process.exit(1);
}
execFileSync(
  "cargo",
  ["test", "--locked", "-p", "session-state-wasm", "--target", "wasm32-unknown-unknown"],
  { stdio: "inherit", env: { ...process.env, CHROMEDRIVER: chromedriver } },
);
