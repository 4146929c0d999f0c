// End to end: the viewer page (demo/) served on 127.0.0.1 by a tiny static server, driven in
// headless /usr/bin/chromium through playwright-core. Screenshots of each step go to
// <repo>/target/e2e/*.png (kept as CI artifacts). Needs `npm run build` first.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(pkgDir);
const vectors = join(repo, "tests", "vectors", "orchestrator");
const shots = join(repo, "target", "e2e");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

/** Serves `root` read-only on 127.0.0.1 at a free port; resolves to the server. */
function serve(root) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (path.endsWith("/")) file = join(file, "index.html");
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let server;
let browser;
let page;
let base;

before(async () => {
  assert.ok(existsSync(chromiumPath), `no chromium at ${chromiumPath}`);
  assert.ok(existsSync(join(pkgDir, "pkg-web", "session_state_wasm.js")), "run `npm run build` first");
  mkdirSync(shots, { recursive: true });
  server = await serve(pkgDir);
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 1300 } });
  page = await context.newPage();
  page.on("pageerror", (err) => console.error("page error:", err));
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function ready() {
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.getAttribute("body", "data-ready"), "true");
}

const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const textOf = (selector) => page.textContent(selector);
const status = () => textOf("#s-status");
const seedText = () => readFileSync(join(vectors, "seed-example.json"), "utf8");
const storedText = (key) => page.evaluate((k) => localStorage.getItem(`session-state:${k}`), key);
const CURRENT = ".claude/orchestrator-session.json";

/** The page with an empty localStorage. */
async function fresh() {
  await page.goto(`${base}/demo/`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await ready();
}

/** Writes `text` to `<repo>/target/e2e/<name>` and opens it with the file input. */
async function open(name, text) {
  const path = join(shots, name);
  writeFileSync(path, text);
  await page.setInputFiles("#file", path);
}

test("the viewer shows the seed example, moves it, keeps it across reloads, and salvages a torn file", async () => {
  await page.goto(`${base}/demo/`);
  await ready();
  assert.equal(await page.isVisible("#empty"), true);
  await shot("01-empty");

  // Load the seed example through the file input.
  await page.setInputFiles("#file", join(vectors, "seed-example.json"));
  await page.waitForSelector("#session:not([hidden])");
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  assert.equal(await textOf("#s-goal"), "Add sensitivity analysis to RMediation::medci()");
  assert.equal(await status(), "in_progress");
  assert.equal(await textOf("#s-progress-label"), "80% complete");
  assert.equal(await page.getAttribute("#s-progress", "aria-valuenow"), "80");
  assert.equal(await page.$eval("#s-progress", (p) => p.value), 80);
  assert.equal(await textOf("#s-resume-from"), "code-1");
  const bars = await page.$$eval("#agent-rows progress", (ps) =>
    ps.map((p) => [p.dataset.agent, p.value, p.getAttribute("aria-valuenow"), p.getAttribute("aria-label")]),
  );
  assert.deepEqual(bars, [
    ["arch-1", 100, "100", "Progress of arch-1"],
    ["code-1", 60, "60", "Progress of code-1"],
  ]);
  assert.deepEqual(await page.$$eval("#pending-list li", (li) => li.map((l) => l.textContent)), [
    "Complete code-1 implementation",
    "Add unit tests",
    "Update documentation",
  ]);
  assert.match(await textOf("#decision-list"), /Use bootstrap for confidence intervals/);
  assert.equal(await textOf("#c-label"), "~25,000 tokens (20%)");
  assert.equal(await page.getAttribute("#c-progress", "aria-valuenow"), "20");
  assert.equal(await textOf("#c-compression"), "Last compression: never");
  assert.match(await page.$eval("#s-markdown", (p) => p.textContent), /^## 🔄 RESUMING SESSION/);
  await shot("02-seed-loaded");

  // Pause, then continue: each move is saved into localStorage.
  await page.click("button[data-move=pause]");
  assert.equal(await status(), "paused");
  assert.match(await textOf("#message"), /is now paused/);
  await shot("03-paused");
  await page.click("button[data-move=resume]");
  assert.equal(await status(), "in_progress");
  await shot("04-continued");
  // A move to the status the session has is accepted and changes nothing.
  await page.click("button[data-move=resume]");
  assert.match(await textOf("#message"), /in_progress/);
  assert.equal(await status(), "in_progress");

  // Reload: the state comes back from localStorage (the save stamped `updated`).
  const stored = await page.evaluate(() => localStorage.getItem("session-state:.claude/orchestrator-session.json"));
  const saved = JSON.parse(stored);
  assert.equal(saved.status, "in_progress");
  assert.notEqual(saved.updated, "2025-12-27T11:45:00Z");
  await page.click("button[data-move=pause]");
  await page.reload();
  await ready();
  assert.equal(await status(), "paused");
  assert.equal(await textOf("#s-progress-label"), "80% complete");
  await shot("05-reloaded");

  // A torn file: the salvage view, never a blank page.
  await page.setInputFiles("#file", join(vectors, "seed-example.torn.json"));
  await page.waitForSelector("#problem:not([hidden])");
  assert.equal(await textOf("#problem-code"), "corrupt_state");
  assert.match(await textOf("#salvage-partial"), /agents\[1\]/);
  // The paused session it replaced (same id, other bytes) was kept, not overwritten.
  const tornMessage = await textOf("#message");
  const pausedCopy = tornMessage.match(/kept as (\.claude\/orchestrator-session\.json\.replaced-\d+)\.$/);
  assert.ok(pausedCopy, tornMessage);
  const pausedText = await page.evaluate((k) => localStorage.getItem(`session-state:${k}`), pausedCopy[1]);
  assert.equal(JSON.parse(pausedText).status, "paused");
  assert.equal(await page.isVisible("#session"), true);
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  await shot("06-torn-salvage");

  // Repair keeps a copy and makes the salvage the current session.
  await page.click("#repair");
  assert.match(await textOf("#message"), /kept as \.claude\/orchestrator-session\.json\.corrupt-/);
  assert.equal(await page.isVisible("#problem"), false);
  assert.equal(await status(), "in_progress");
  await shot("07-repaired");

  // A history folder's files: listed newest first by instant (the golden order).
  const dir = join(vectors, "project", ".claude", "orchestrator-history");
  const names = ["2025-12-20-aa11f0.json", "2025-12-22-0be7c2.json", "2025-12-24-ff0913.json"];
  await page.setInputFiles("#file", names.map((n) => join(dir, n)));
  await page.waitForFunction(() => document.querySelectorAll("#history-list li time").length === 3);
  const golden = JSON.parse(readFileSync(join(vectors, "project.history.json"), "utf8"));
  const listed = await page.$$eval("#history-list li", (li) => li.map((l) => l.textContent));
  assert.deepEqual(
    listed.map((t) => golden.findIndex((g) => t.includes(g.id))),
    [0, 1, 2],
  );
  await shot("08-history");

  // An archive under another file name is stored under its session id: listed once. Another
  // archive of a stored session is not stored, and the stored one is kept.
  const copy = join(shots, "copy-of-an-archive.json");
  const archived = readFileSync(join(dir, names[0]), "utf8");
  writeFileSync(copy, archived);
  const changed = join(shots, "changed-archive.json");
  writeFileSync(changed, JSON.stringify({ ...JSON.parse(archived), goal: "another goal" }));
  await page.setInputFiles("#file", [copy, join(dir, names[1])]);
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Opened copy-of-an-archive.json"));
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 3);
  await page.setInputFiles("#file", [changed, join(dir, names[2])]);
  await page.waitForFunction(() => document.querySelector("#message").textContent.includes("was not stored"));
  assert.match(await textOf("#message"), /^changed-archive\.json was not stored: already_exists: .*2025-12-20-aa11f0\.json already holds another archive/);
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 3);
  const kept = await page.evaluate((k) => localStorage.getItem(`session-state:${k}`), `.claude/orchestrator-history/${names[0]}`);
  assert.equal(kept, archived);

  // Archive moves the current session into the history list.
  await page.click("button[data-move=archive]");
  assert.match(await textOf("#message"), /^Archived to \.claude\/orchestrator-history\/2025-12-27-abc123\.json/);
  assert.equal(await page.isVisible("#empty"), true);
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 4);
  await shot("09-archived");

  // An incompatible file: the error kind and message, nothing salvaged, never a blank page.
  const future = join(shots, "orchestrator-session.json");
  const seed = JSON.parse(readFileSync(join(vectors, "seed-example.json"), "utf8"));
  writeFileSync(future, JSON.stringify({ ...seed, schema_version: "2.0" }));
  await page.setInputFiles("#file", future);
  await page.waitForSelector("#problem:not([hidden])");
  assert.equal(await textOf("#problem-code"), "incompatible_schema");
  assert.match(await textOf("#problem-message"), /2\.0/);
  assert.equal(await page.isVisible("#salvage"), false);
  assert.equal(await page.isVisible("#no-salvage"), true);
  assert.equal(await page.isVisible("#session"), false);
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 4);
  await shot("10-incompatible");

  // Dropping a file on the drop zone opens it like the file input.
  const seedText = readFileSync(join(vectors, "seed-example.json"), "utf8");
  const transfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "orchestrator-session.json", { type: "application/json" }));
    return dt;
  }, seedText);
  await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
  await page.waitForSelector("#problem", { state: "hidden" });
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  // The incompatible file it replaced is kept, not overwritten.
  const message = await textOf("#message");
  const aside = message.match(/^Opened orchestrator-session\.json\. The file it replaces was kept as (\.claude\/orchestrator-session\.json\.replaced-\d+)\.$/);
  assert.ok(aside, message);
  const keptText = await page.evaluate((k) => localStorage.getItem(`session-state:${k}`), aside[1]);
  assert.equal(JSON.parse(keptText).schema_version, "2.0");
  await shot("11-dropped");

  // Opening another session: the stored one is archived first, or kept aside when its archive
  // already exists (2025-12-27-abc123 was archived above).
  const other = join(shots, "other-session.json");
  writeFileSync(other, JSON.stringify({ ...seed, session_id: "2026-01-01-other1" }));
  await page.setInputFiles("#file", other);
  await page.waitForFunction(() => document.querySelector("#s-id").textContent === "2026-01-01-other1");
  assert.match(await textOf("#message"), /The file it replaces was kept as \.claude\/orchestrator-session\.json\.replaced-\d+\.$/);
  await page.setInputFiles("#file", join(vectors, "seed-example.json"));
  await page.waitForFunction(() => document.querySelectorAll("#history-list li time").length === 5);
  assert.match(
    await textOf("#message"),
    /The session it replaces was archived to \.claude\/orchestrator-history\/2026-01-01-other1\.json\.$/,
  );
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  await shot("12-replaced-archived");

  // Its archive exists: Archive asks before replacing it; declined, nothing changes.
  page.once("dialog", (d) => d.dismiss());
  await page.click("button[data-move=archive]");
  assert.match(await textOf("#message"), /already_exists/);
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  page.once("dialog", (d) => d.accept());
  await page.click("button[data-move=archive]");
  assert.match(await textOf("#message"), /^Archived to \.claude\/orchestrator-history\/2025-12-27-abc123\.json/);
  assert.equal(await page.isVisible("#empty"), true);
});

test("a session holding numbers beyond 2^53 - 1 is shown, and its file is not rewritten", async () => {
  const cases = [
    ['"estimated_tokens": 25000', '"estimated_tokens": 18446744073709551615', "context_usage.estimated_tokens", /^~18,446,744,073,709,552,000 tokens \(20%\)$/],
    ['"percentage": 20', '"percentage": 1e20', "context_usage.percentage", /^~25,000 tokens \(100000000000000000000%\)$/],
    ['"estimated_tokens": 25000', '"estimated_tokens": 9007199254740993', "context_usage.estimated_tokens", /^~9,007,199,254,740,992 tokens \(20%\)$/],
  ];
  for (const [i, [from, to, path, label]] of cases.entries()) {
    await fresh();
    const text = seedText().replace(from, to);
    assert.notEqual(text, seedText());
    await open("orchestrator-session.json", text);
    await page.waitForSelector("#session:not([hidden])");
    assert.equal(await page.isVisible("#problem"), false);
    assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
    assert.equal(await textOf("#s-progress-label"), "80% complete");
    assert.match(await textOf("#c-label"), label);
    assert.equal(await page.isVisible("button[data-move=pause]"), true);
    assert.match(await textOf("#s-capped"), new RegExp(`\`${path.replace(".", "\\.")}\`: beyond 2\\^53 - 1`));
    assert.match(await page.$eval("#s-markdown", (p) => p.textContent), /^## 🔄 RESUMING SESSION/);
    // Display only: the stored file keeps its exact text.
    assert.equal(await storedText(CURRENT), text);
    await shot(`13-unsafe-number-${i + 1}`);
  }
});

test("a file the storage quota refuses leaves the current session current", async () => {
  await fresh();
  await page.setInputFiles("#file", join(vectors, "seed-example.json"));
  await page.waitForSelector("#session:not([hidden])");
  const seed = await storedText(CURRENT);
  // Another session, larger than Chromium's localStorage quota (10 MB per origin).
  const huge = JSON.parse(seedText());
  huge.session_id = "2026-01-01-huge01";
  huge.goal = "x".repeat(12 * 1024 * 1024);
  await open("huge.json", JSON.stringify(huge));
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("huge.json was not stored"));
  assert.match(await textOf("#message"), /^huge\.json was not stored: storage: .* The current session is unchanged\.$/s);
  assert.equal(await page.isVisible("#empty"), false);
  assert.equal(await page.isVisible("#session"), true);
  assert.equal(await textOf("#s-id"), "2025-12-27-abc123");
  assert.equal(await storedText(CURRENT), seed);
  // Nothing archived, nothing kept aside: the store is as before.
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 0);
  const keys = await page.evaluate(() => Object.keys(localStorage).sort());
  assert.deepEqual(keys, [`session-state:${CURRENT}`]);
  await shot("14-quota-refused");
});

// The e2e's time limit (a hang fails instead of blocking CI; not a speed measure): a summary
// per agent took minutes here.
test("a session with 8,000 agents and 8,000 pending tasks renders (one summary, not one per agent)", { timeout: 60_000 }, async () => {
  await fresh();
  const big = JSON.parse(seedText());
  const statuses = ["complete", "in_progress", "pending", "failed"];
  big.agents = Array.from({ length: 8000 }, (_, i) => ({
    id: `agent-${i}`,
    type: "code",
    task: `Task ${i}`,
    status: statuses[i % 4],
    started: "2025-12-27T10:30:00Z",
    progress: i % 101,
  }));
  big.pending_tasks = Array.from({ length: 8000 }, (_, i) => `Pending ${i}`);
  await open("orchestrator-session.json", JSON.stringify(big));
  await page.waitForFunction(() => document.querySelectorAll("#agent-rows tr").length === 8000);
  assert.equal(await page.evaluate(() => document.querySelectorAll("#pending-list li").length), 8000);
  // (page.evaluate, not $$eval: a handle per element is slow for 8,000 of them.)
  const values = await page.evaluate(() => [...document.querySelectorAll("#agent-rows progress")].map((p) => p.value));
  assert.deepEqual(values.slice(0, 4), [100, 1, 2, 3]);
  // The session's progress is the mean of the agents' bars, rounded (the package's rule).
  const mean = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  assert.equal(await textOf("#s-progress-label"), `${mean}% complete`);
  await page.screenshot({ path: join(shots, "15-many-agents.png") });
});

test("a file with nothing salvageable offers to keep it aside, and says so after", async () => {
  await fresh();
  const path = join(shots, "orchestrator-session.json");
  writeFileSync(path, Buffer.from([0xff, 0x00, 0x13]));
  await page.setInputFiles("#file", path);
  await page.waitForSelector("#problem:not([hidden])");
  assert.equal(await textOf("#problem-code"), "corrupt_state");
  // No made-up session: no salvage view, no session, no lifecycle buttons.
  assert.equal(await page.isVisible("#salvage"), false);
  assert.equal(await page.isVisible("#session"), false);
  assert.equal(await page.isVisible("button[data-move=pause]"), false);
  assert.match(await textOf("#unsalvageable"), /Nothing could be salvaged/);
  assert.equal(await textOf("#move-aside"), "Keep the damaged file aside");
  await shot("16-nothing-salvaged");
  await page.click("#move-aside");
  assert.match(
    await textOf("#message"),
    /^Nothing could be salvaged: the damaged file was moved aside to \.claude\/orchestrator-session\.json\.corrupt-\d{8}T\d{6}Z; there is no current session\.$/,
  );
  assert.equal(await page.isVisible("#problem"), false);
  assert.equal(await page.isVisible("#empty"), true);
  const aside = (await textOf("#message")).match(/moved aside to (\S+);/)[1];
  assert.equal(await storedText(CURRENT), null);
  assert.ok((await storedText(aside)) !== null);
  await shot("17-moved-aside");
});

test("long unbroken words wrap: the page and the agents table fit the viewport", async () => {
  await fresh();
  const long = JSON.parse(seedText());
  long.goal = "g".repeat(3000);
  long.agents = long.agents.map((a, i) => ({ ...a, id: `${i}`.padEnd(200, "a"), task: "t".repeat(500) }));
  long.pending_tasks = ["p".repeat(1000)];
  long.decisions_made[0].decision = "d".repeat(1000);
  long.project.path = `/${"q".repeat(1000)}`;
  await open("orchestrator-session.json", JSON.stringify(long));
  await page.waitForSelector("#session:not([hidden])");
  // Archived too, so the history list holds the long goal.
  await page.click("button[data-move=archive]");
  await open("orchestrator-session.json", JSON.stringify(long));
  await page.waitForSelector("#session:not([hidden])");
  assert.equal(await page.$$eval("#history-list li time", (t) => t.length), 1);
  const [scrollWidth, innerWidth, tableRight] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
    document.querySelector("#agents table").getBoundingClientRect().right,
  ]);
  assert.ok(scrollWidth <= innerWidth, `page ${scrollWidth} px wide at a ${innerWidth} px viewport`);
  assert.ok(tableRight <= innerWidth, `agents table ends at ${tableRight} px`);
  // The Progress column is on screen.
  const barRight = await page.$eval("#agent-rows progress", (p) => p.getBoundingClientRect().right);
  assert.ok(barRight <= innerWidth, `progress bar ends at ${barRight} px`);
  await shot("18-long-words");
  await page.locator("#agents").screenshot({ path: join(shots, "18-long-words-agents.png") });
});
