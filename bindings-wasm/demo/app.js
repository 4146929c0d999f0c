// The session viewer: every decision (parsing, summary, salvage, lifecycle) is made by the
// wasm package; this module only moves files into the store and shows what the package returns.
import init, {
  LocalStorageStore,
  OrchestratorStore,
  renderResume,
  resumeSummary,
  salvage,
} from "../pkg-web/session_state_wasm.js";

const CURRENT = ".claude/orchestrator-session.json";
const HISTORY = ".claude/orchestrator-history";

const $ = (id) => document.getElementById(id);
let store;
let sessions;

function text(id, value) {
  $(id).textContent = value;
}

function say(message, isError = false) {
  const el = $("message");
  el.textContent = message;
  el.classList.toggle("error", isError);
}

function describeError(err) {
  return err && err.code ? `${err.code}: ${err.message}` : String(err);
}

function bar(progress, value, label) {
  progress.value = value;
  progress.setAttribute("aria-valuemin", "0");
  progress.setAttribute("aria-valuemax", "100");
  progress.setAttribute("aria-valuenow", String(value));
  if (label) progress.setAttribute("aria-label", label);
  progress.textContent = `${value}%`;
}

function list(id, items, render) {
  const el = $(id);
  el.replaceChildren(
    ...items.map((item) => {
      const li = document.createElement("li");
      render(li, item);
      return li;
    }),
  );
  if (items.length === 0) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "None";
    el.append(li);
  }
}

// An agent's own progress by the rule of the package's session progress (the core's
// `progress_percent`: a complete agent counts 100, one without `progress` 0, capped at 100).
// Computed here, once per agent: a summary per agent cost agents x pending tasks.
function agentProgress(agent) {
  return agent.status === "complete" ? 100 : Math.min(100, agent.progress ?? 0);
}

// A loaded document may hold numbers beyond 2^53 - 1 (`"estimated_tokens":
// 18446744073709551615` loads as the nearest double), which the package's argument check
// refuses. For display only, the summary is computed from a copy where each such number is
// capped at ±Number.MAX_SAFE_INTEGER; the stored file is never rewritten for it. Returns
// `value` itself when it holds none, else a copy; the paths capped are pushed to `capped`.
function capUnsafe(value, path, capped) {
  if (typeof value === "number") {
    if (Math.abs(value) <= Number.MAX_SAFE_INTEGER) return value;
    capped.push(path);
    return Math.sign(value) * Number.MAX_SAFE_INTEGER;
  }
  if (value === null || typeof value !== "object") return value;
  const isArray = Array.isArray(value);
  let copy = null;
  for (const [k, v] of Object.entries(value)) {
    const at = isArray ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    const w = capUnsafe(v, at, capped);
    if (w !== v) {
      copy ??= isArray ? [...value] : { ...value };
      copy[k] = w;
    }
  }
  return copy ?? value;
}

function showCapped(capped) {
  const note = $("s-capped");
  note.hidden = capped.length === 0;
  if (note.hidden) return;
  const shown = capped.slice(0, 5).map((p) => `\`${p}\``).join(", ");
  const more = capped.length > 5 ? ` and ${capped.length - 5} more` : "";
  note.textContent =
    `${shown}${more}: beyond 2^53 - 1, shown as the nearest JS number here and capped at ` +
    `${Number.MAX_SAFE_INTEGER.toLocaleString("en-US")} in the resume block. The stored file is unchanged.`;
}

function showSession(doc) {
  const capped = [];
  const shown = capUnsafe(doc, "", capped);
  const summary = resumeSummary(shown);
  showCapped(capped);
  $("session").hidden = false;
  text("s-id", summary.session_id);
  text("s-goal", summary.goal ?? "unknown");
  const status = $("s-status");
  status.textContent = summary.status;
  status.className = `badge ${summary.status}`;
  text("s-started", summary.started ? `${summary.started_relative} (${summary.started})` : "unknown");
  bar($("s-progress"), summary.progress_percent, "Session progress");
  text("s-progress-label", `${summary.progress_percent}% complete`);
  text("s-resume-from", summary.resume_from ?? "nothing in progress");
  text("s-markdown", renderResume(summary));

  const rows = shown.agents.map((agent) => {
    const tr = document.createElement("tr");
    const cells = [agent.id + (agent.type ? ` (${agent.type})` : ""), agent.task];
    for (const value of cells) {
      const td = document.createElement("td");
      td.textContent = value;
      tr.append(td);
    }
    const st = document.createElement("td");
    const badge = document.createElement("span");
    badge.className = `badge ${agent.status}`;
    badge.textContent = agent.status;
    st.append(badge);
    const pr = document.createElement("td");
    const progress = document.createElement("progress");
    progress.max = 100;
    const value = agentProgress(agent);
    bar(progress, value, `Progress of ${agent.id}`);
    progress.dataset.agent = agent.id;
    const label = document.createElement("span");
    label.textContent = ` ${value}%`;
    pr.append(progress, label);
    tr.append(st, pr);
    return tr;
  });
  $("agent-rows").replaceChildren(...rows);

  list("pending-list", summary.pending, (li, task) => {
    li.textContent = task;
  });
  list("decision-list", doc.decisions_made, (li, d) => {
    const strong = document.createElement("strong");
    strong.textContent = d.decision;
    li.append(strong, ` (${d.rationale}) `);
    const time = document.createElement("time");
    time.dateTime = d.timestamp;
    time.textContent = d.timestamp;
    li.append(time);
  });

  // The numbers as loaded (not capped; see capUnsafe).
  const usage = doc.context_usage;
  const ctx = summary.context;
  const pct = Math.max(0, Math.min(100, Number(usage.percentage)));
  bar($("c-progress"), pct, "Context used");
  text("c-label", `~${usage.estimated_tokens.toLocaleString("en-US")} tokens (${usage.percentage}%)`);
  text(
    "c-compression",
    `Last compression: ${ctx.last_compression ? `${ctx.last_compression_relative} (${ctx.last_compression})` : "never"}`,
  );
}

function showProblem(err) {
  $("problem").hidden = false;
  text("problem-code", err.code ?? "error");
  text("problem-message", err.message);
  const salvaged = err.salvaged;
  const bytes = salvaged ? store.read(CURRENT) : null;
  const found = bytes ? salvage(bytes) : null;
  const usable = Boolean(found?.recovered_anything);
  $("salvage").hidden = !usable;
  $("unsalvageable").hidden = !salvaged || usable;
  $("no-salvage").hidden = Boolean(salvaged);
  if (!usable) return;
  const names = (paths) => (paths.length ? paths.map((p) => p || "(top level)").join(", ") : "none");
  text("salvage-partial", names(found.partial));
  text("salvage-missing", names(found.missing));
  text("salvage-replaced", names(found.replaced));
  try {
    showSession(salvaged);
  } catch (e) {
    text("problem-message", `${err.message}; the salvage cannot be shown either: ${describeError(e)}`);
  }
}

function showHistory() {
  let page;
  try {
    page = sessions.listHistory({ limit: 100 });
  } catch (err) {
    text("history-skipped", `The history cannot be listed: ${describeError(err)}`);
    return;
  }
  list("history-list", page.entries, (li, entry) => {
    const badge = document.createElement("span");
    badge.className = `badge ${entry.status}`;
    badge.textContent = entry.status;
    const time = document.createElement("time");
    time.dateTime = entry.created;
    time.textContent = entry.created;
    li.append(time, " ", badge, ` ${entry.id}: ${entry.goal}`);
  });
  text(
    "history-skipped",
    page.skipped.length
      ? `Skipped: ${page.skipped.map((s) => `${s.key} (${s.code})`).join(", ")}`
      : "",
  );
}

function render() {
  $("problem").hidden = true;
  $("session").hidden = true;
  $("empty").hidden = true;
  try {
    const doc = sessions.load();
    if (doc) showSession(doc);
    else $("empty").hidden = false;
  } catch (err) {
    showProblem(err);
  }
  showHistory();
}

// Stores `incoming` as the current session without losing the one it replaces. The new bytes
// are written first: when that write fails (the storage quota), nothing has changed and the
// previous session is still current. Then the previous session is kept: archived when it is
// another session (by id, read from the incoming bytes even when they are torn; the archive
// does not remove the current file, which now holds another id), or its bytes copied to
// `<current>.replaced-<ms>` when it cannot be archived (unreadable, or its archive exists) or
// is the same session in another state. When keeping it fails, its bytes are put back as the
// current file and the error is thrown. Identical bytes need nothing. Returns what was done.
function storeCurrent(incoming) {
  const old = store.read(CURRENT);
  if (old && sameBytes(old, incoming)) return "";
  let previous = null;
  if (old) {
    try {
      previous = sessions.load();
    } catch {
      // Unreadable, incompatible or too large: kept aside below.
    }
  }
  const incomingId = old ? salvage(incoming).document.session_id : null;
  store.write(CURRENT, incoming);
  if (!old) return "";
  try {
    if (previous && previous.session_id !== incomingId) {
      try {
        return ` The session it replaces was archived to ${sessions.archive(previous, { replace: false })}.`;
      } catch {
        // Its archive exists (or cannot be written): kept aside below.
      }
    }
    const aside = `${CURRENT}.replaced-${Date.now()}`;
    store.write(aside, old);
    return ` The file it replaces was kept as ${aside}.`;
  } catch (err) {
    store.write(CURRENT, old);
    throw err;
  }
}

// The key of an archive: named by its session id, as `archive` names it, so that a copy under
// another file name is not listed twice; the file's own name when it holds no usable id.
function archiveKey(name, bytes) {
  let id = null;
  try {
    id = salvage(bytes).document.session_id;
  } catch {
    // Not JSON at all: kept under its file name, where the history reports it as skipped.
  }
  const usable = typeof id === "string" && id !== "" && id !== "." && id !== ".." && !/[\/\\\u0000-\u001f]/.test(id);
  return usable ? `${HISTORY}/${id}.json` : `${HISTORY}/${name}`;
}

// Stores an archive unless one with other bytes is stored under its key, which is kept.
function storeArchive(key, bytes) {
  const old = store.read(key);
  if (old && sameBytes(old, bytes)) return;
  if (old) {
    throw Object.assign(new Error(`${key} already holds another archive of that session, kept as it is`), {
      code: "already_exists",
    });
  }
  store.write(key, bytes);
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

async function openFiles(files) {
  const jsonFiles = [...files].filter((f) => f.name.endsWith(".json"));
  if (jsonFiles.length === 0) {
    say("No .json file was chosen.", true);
    return;
  }
  const single = jsonFiles.length === 1;
  const written = [];
  let kept = "";
  for (const file of jsonFiles) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // One file, or the file named orchestrator-session.json, is the current session; the
    // others are archives of the history folder.
    const key = single || file.name === "orchestrator-session.json" ? CURRENT : archiveKey(file.name, bytes);
    try {
      if (key === CURRENT) kept += storeCurrent(bytes);
      else storeArchive(key, bytes);
      written.push(file.name);
    } catch (err) {
      const unchanged = key === CURRENT ? " The current session is unchanged." : "";
      say(`${file.name} was not stored: ${describeError(err)}.${unchanged}`, true);
      render();
      return;
    }
  }
  if (jsonFiles.some((f) => !single && f.name !== "orchestrator-session.json")) {
    sessions.rebuildIndex();
  }
  say(`Opened ${written.join(", ")}.${kept}`);
  render();
}

function move(name, replace = false) {
  try {
    if (name === "archive") {
      const doc = sessions.load();
      if (!doc) throw Object.assign(new Error("there is no current session"), { code: "not_found" });
      const key = sessions.archive(doc, { replace });
      say(`Archived to ${key}.`);
    } else if (name === "complete" || name === "abort") {
      const doc = sessions[name]({ replace });
      say(`Session ${doc.session_id} is now ${doc.status}.`);
    } else {
      const doc = sessions[name]();
      say(`Session ${doc.session_id} is now ${doc.status}.`);
    }
  } catch (err) {
    // An archive of this session exists: ask before replacing it (nothing changed so far).
    if (err.code === "already_exists" && !replace &&
        window.confirm("An archive of this session already exists. Replace it?")) {
      move(name, true);
      return;
    }
    say(describeError(err), true);
  }
  render();
}

function repair() {
  try {
    const done = sessions.recover();
    if (!done) say("Nothing to repair.");
    else if (done.action === "moved_aside") {
      say(`Nothing could be salvaged: the damaged file was moved aside to ${done.kept_copy}; there is no current session.`);
    } else say(`Repaired; the damaged file was kept as ${done.kept_copy}.`);
  } catch (err) {
    say(`Cannot repair: ${describeError(err)}`, true);
  }
  render();
}

async function main() {
  await init();
  store = new LocalStorageStore("session-state:");
  sessions = new OrchestratorStore(store);
  for (const id of ["file", "folder"]) {
    $(id).addEventListener("change", (e) => openFiles(e.target.files).finally(() => (e.target.value = "")));
  }
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    openFiles(e.dataTransfer.files);
  });
  for (const button of document.querySelectorAll("[data-move]")) {
    button.addEventListener("click", () => move(button.dataset.move));
  }
  $("repair").addEventListener("click", repair);
  $("move-aside").addEventListener("click", repair);
  render();
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  say(`The viewer cannot start: ${describeError(err)}`, true);
  document.body.dataset.ready = "error";
});
