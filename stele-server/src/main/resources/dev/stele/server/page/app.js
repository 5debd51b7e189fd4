// Stele's page: logs in with the server's API, lists the user's snapshots, browses and
// downloads. Plain DOM, text only (never innerHTML), state in the URL's fragment:
// #/<snapshot id>/<path segments, percent-encoded>. The session is the server's HttpOnly
// cookie; the CSRF token it gives is sent with each change the page makes: logging out and
// asking for a restore to a pod volume.
"use strict";

const api = "/api/v1";
let csrf = "";

const $ = (id) => document.getElementById(id);

function show(section) {
  for (const e of document.querySelectorAll("main > section")) {
    e.hidden = e.id !== section;
  }
}

function say(text) {
  $("message").textContent = text;
}

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// One path as URL segments: each name percent-encoded on its own.
function encodePath(path) {
  return path.split("/").filter((s) => s !== "").map(encodeURIComponent).join("/");
}

async function call(path, options) {
  const r = await fetch(api + path, Object.assign({ credentials: "same-origin" }, options));
  if (r.status === 401) {
    signedOut();
    throw new Error((await r.json()).error);
  }
  if (!r.ok) throw new Error((await r.json()).error);
  return r.json();
}

function signedIn(user) {
  $("user").textContent = user;
  $("account").hidden = false;
  route();
}

function signedOut() {
  csrf = "";
  $("account").hidden = true;
  show("login");
  $("login-user").focus();
}

async function login(event) {
  event.preventDefault();
  say("");
  const r = await fetch(api + "/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: $("login-user").value, password: $("login-password").value }),
  });
  const body = await r.json();
  $("login-password").value = "";
  if (!r.ok) {
    say(body.error);
    return;
  }
  csrf = body.csrf;
  signedIn(body.user);
}

async function logout() {
  try {
    await call("/logout", { method: "POST", headers: { "X-CSRF-Token": csrf } });
  } catch (e) {
    // already ended: the page is logged out either way
  }
  history.replaceState(null, "", "/");
  say("Logged out.");
  signedOut();
}

// The group a snapshot is listed under: its backup, else its pod's namespace, else its host.
function groupOf(s) {
  if (s.backup) return "Backup " + s.backup;
  if (s.namespace) return "Namespace " + s.namespace;
  return "Host " + s.host;
}

function titleOf(s) {
  if (s.pod && s.volume) return (s.namespace ? s.namespace + "/" : "") + s.pod + " — volume " + s.volume;
  if (s.tags.includes("backup-resources")) return "Kubernetes resources";
  if (s.tags.includes("backup")) return "Backup manifest";
  return s.paths.join(", ");
}

async function listSnapshots() {
  const list = await call("/snapshots");
  const groups = new Map();
  for (const s of list.slice().reverse()) { // newest first
    const g = groupOf(s);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(s);
  }
  const root = $("groups");
  root.replaceChildren();
  for (const [name, items] of groups) {
    const section = el("section");
    section.append(el("h3", name));
    const ul = el("ul", undefined, { class: "snapshots" });
    for (const s of items) {
      const li = el("li");
      // Opens at the snapshot's first source path, where its data starts.
      const start = s.paths.length === 1 ? encodePath(s.paths[0]) : "";
      li.append(el("a", titleOf(s), { href: "#/" + s.id + "/" + start }));
      li.append(el("span", s.id.slice(0, 8) + " · " + new Date(s.time).toLocaleString() +
        " · " + s.host, { class: "meta" }));
      ul.append(li);
    }
    section.append(ul);
    root.append(section);
  }
  $("snapshots-empty").hidden = list.length > 0;
  fillCompare(list);
  await listRestoreRequests();
  show("snapshots");
}

// ---- restore to a pod volume: asked for here, approved by an admin in the cluster

async function listRestoreRequests() {
  const requests = await call("/restore-requests");
  const body = $("requests-entries");
  body.replaceChildren();
  for (const q of requests) {
    const tr = el("tr");
    tr.append(el("td", q.paths.join(", ")));
    tr.append(el("td", q.namespace + "/" + q.pod + " — volume " + q.volume));
    tr.append(el("td", q.phase));
    tr.append(el("td", q.message));
    body.append(tr);
  }
  $("requests").hidden = requests.length === 0;
}

// A button asking for `path` (a path of the snapshot) back in the pod's volume, for a pod
// volume's snapshot; null for any other.
function restoreButton(snapshot, path) {
  if (!snapshot.pod || !snapshot.volume || snapshot.paths.length !== 1) return null;
  const root = snapshot.paths[0];
  if (path !== root && !path.startsWith(root + "/")) return null;
  const inside = path === root ? "/" : path.slice(root.length);
  const name = inside === "/" ? "the whole volume" : inside;
  const button = el("button", "Restore to its volume", {
    type: "button",
    "aria-label": "Restore " + name + " to volume " + snapshot.volume + " of " + snapshot.pod,
  });
  button.addEventListener("click", async () => {
    const to = snapshot.namespace + "/" + snapshot.pod + ", volume " + snapshot.volume;
    if (!confirm("Ask for " + name + " to be restored into " + to +
        "? Files already there are kept; an admin approves the request first.")) return;
    try {
      const q = await call("/snapshots/" + snapshot.id + "/restore-requests", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ path: inside, overwrite: false }),
      });
      say("Restore request " + q.name + " sent: it waits for an admin's approval.");
    } catch (e) {
      say(e.message);
    }
  });
  return button;
}

function size(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + " " + units[i];
}

// The directory's downloads, each streamed by the server as it reads the snapshot.
function archiveLinks(id, path) {
  for (const form of ["zip", "tar", "tgz"]) {
    $(form).href = api + "/snapshots/" + id + "/" + form + "/" + encodePath(path);
  }
}

async function browse(id, path) {
  const entries = await call("/snapshots/" + encodeURIComponent(id) + "/ls/" + encodePath(path));
  const snapshot = await call("/snapshots/" + encodeURIComponent(id));
  const crumbs = $("crumbs");
  crumbs.replaceChildren();
  const all = el("li");
  all.append(el("a", "Snapshots", { href: "#" }));
  crumbs.append(all);
  const root = el("li");
  root.append(el("a", id.slice(0, 8), { href: "#/" + id + "/" }));
  crumbs.append(root);
  let sofar = "";
  for (const name of path.split("/").filter((s) => s !== "")) {
    sofar += "/" + name;
    const li = el("li");
    li.append(el("a", name, { href: "#/" + id + "/" + encodePath(sofar) }));
    crumbs.append(li);
  }
  crumbs.lastChild.firstChild.setAttribute("aria-current", "page");
  archiveLinks(id, path);
  const body = $("entries");
  body.replaceChildren();
  for (const e of entries) {
    const tr = el("tr");
    const name = el("td");
    if (e.type === "directory") {
      name.append(el("a", e.name + "/", { href: "#/" + id + "/" + encodePath(e.path) }));
    } else if (e.type === "file") {
      name.append(el("a", e.name, {
        href: api + "/snapshots/" + id + "/files/" + encodePath(e.path),
        download: e.name,
      }));
      name.append(historyLink(e));
    } else {
      name.append(el("span", e.name + (e.target ? " → " + e.target : "") + " (" + e.type + ")"));
    }
    tr.append(name);
    tr.append(el("td", e.type === "file" ? size(e.size) : "", { class: "size" }));
    tr.append(el("td", new Date(e.mtime).toLocaleString()));
    const restore = el("td");
    const button = e.type === "file" || e.type === "directory" ? restoreButton(snapshot, e.path) : null;
    if (button) restore.append(button);
    tr.append(restore);
    body.append(tr);
  }
  $("browser-title").textContent = "Files in " + (path || "/");
  show("browser");
}

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "") {
      await listSnapshots();
    } else if (parts[0] === "find") {
      await findFiles(decodeURIComponent(parts[1] || ""), parts[2] === "i");
    } else if (parts[0] === "diff") {
      await compare(parts[1], parts[2]);
    } else if (parts[0] === "history") {
      await fileHistory("/" + parts.slice(1).map(decodeURIComponent).join("/"));
    } else {
      await browse(parts[0], "/" + parts.slice(1).map(decodeURIComponent).join("/"));
    }
  } catch (e) {
    say(e.message);
  }
}

async function start() {
  $("login-form").addEventListener("submit", login);
  $("logout").addEventListener("click", logout);
  $("find-form").addEventListener("submit", startFind);
  $("diff-form").addEventListener("submit", startCompare);
  window.addEventListener("hashchange", () => { if (csrf) route(); });
  const r = await fetch(api + "/session", { credentials: "same-origin" });
  if (r.ok) {
    const s = await r.json();
    csrf = s.csrf;
    signedIn(s.user);
  } else {
    signedOut();
  }
}

// ---- search, compare, history: #find/<pattern>[/i], #diff/<a>/<b>, #history/<path>

function when(mtime) {
  return new Date(mtime).toLocaleString();
}

function parentOf(path) {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

function downloadLink(id, e, text) {
  return el("a", text, {
    href: api + "/snapshots/" + id + "/files/" + encodePath(e.path),
    download: e.name,
  });
}

function historyLink(e) {
  const span = el("span", undefined, { class: "actions" });
  span.append(el("a", "history", {
    href: "#history/" + encodePath(e.path),
    "aria-label": "History of " + e.name,
  }));
  return span;
}

function startFind(event) {
  event.preventDefault();
  location.hash = "#find/" + encodeURIComponent($("find-pattern").value) +
    ($("find-case").checked ? "/i" : "");
}

async function findFiles(pattern, ignoreCase) {
  const q = "?pattern=" + encodeURIComponent(pattern) + "&newestFirst&limit=1000" +
    (ignoreCase ? "&ignoreCase" : "");
  const found = await call("/find" + q);
  const root = $("found-list");
  root.replaceChildren();
  let count = 0;
  for (const f of found) {
    const s = f.snapshot;
    const section = el("section");
    section.append(el("h3", titleOf(s) + " · " + s.id.slice(0, 8) + " · " + when(s.time)));
    const table = el("table");
    const head = el("tr");
    for (const h of ["Path", "Size", "Modified"]) head.append(el("th", h, { scope: "col" }));
    table.append(el("thead"));
    table.firstChild.append(head);
    const body = el("tbody");
    for (const e of f.matches) {
      count++;
      const tr = el("tr");
      const cell = el("td");
      const dir = e.type === "directory" ? e.path : parentOf(e.path);
      cell.append(el("a", e.path + (e.type === "directory" ? "/" : ""),
        { href: "#/" + s.id + "/" + encodePath(dir) }));
      if (e.type === "file") {
        const actions = historyLink(e);
        actions.prepend(downloadLink(s.id, e, "download"));
        cell.append(actions);
      }
      tr.append(cell);
      tr.append(el("td", e.type === "file" ? size(e.size) : "", { class: "size" }));
      tr.append(el("td", when(e.mtime)));
      body.append(tr);
    }
    table.append(body);
    section.append(table);
    root.append(section);
  }
  $("found-title").textContent = count === 0 ? "Nothing matches " + pattern
    : count + " matches for " + pattern;
  $("find-pattern").value = pattern;
  show("found");
}

function fillCompare(list) {
  const newest = list.slice().reverse();
  for (const [id, pick] of [["diff-from", 1], ["diff-to", 0]]) {
    const select = $(id);
    select.replaceChildren();
    for (const s of newest) {
      select.append(el("option", titleOf(s) + " · " + s.id.slice(0, 8) + " · " + when(s.time),
        { value: s.id }));
    }
    select.selectedIndex = Math.min(pick, newest.length - 1);
  }
  $("diff-form").hidden = list.length < 2;
}

function startCompare(event) {
  event.preventDefault();
  location.hash = "#diff/" + $("diff-from").value + "/" + $("diff-to").value;
}

const kinds = { "+": "added", "-": "removed", M: "modified" };

async function compare(a, b) {
  const changes = await call("/diff/" + encodeURIComponent(a) + "/" + encodeURIComponent(b));
  const body = $("diff-entries");
  body.replaceChildren();
  for (const c of changes) {
    const tr = el("tr");
    const kind = el("td", undefined, { class: "change" });
    kind.append(el("abbr", c.kind === "-" ? "−" : c.kind, { title: kinds[c.kind] }));
    tr.append(kind);
    const e = c.after || c.before;
    const id = c.after ? b : a;
    const cell = el("td");
    if (e.type === "directory") {
      cell.append(el("a", c.path, { href: "#/" + id + "/" + encodePath(e.path) }));
    } else if (e.type === "file") {
      cell.append(downloadLink(id, e, c.path));
    } else {
      cell.append(el("span", c.path));
    }
    tr.append(cell);
    const sizes = [c.before, c.after].filter((x) => x && x.type === "file").map((x) => size(x.size));
    tr.append(el("td", sizes.join(" → "), { class: "size" }));
    body.append(tr);
  }
  $("diff-title").textContent = "Changes from " + a.slice(0, 8) + " to " + b.slice(0, 8) +
    ": " + changes.length;
  show("diff");
}

async function fileHistory(path) {
  const versions = await call("/history/" + encodePath(path));
  const body = $("history-entries");
  body.replaceChildren();
  versions.forEach((v, i) => {
    const tr = el("tr");
    const first = el("td");
    const label = "Version " + (versions.length - i);
    first.append(v.entry.type === "file" ? downloadLink(v.snapshots[0], v.entry, label)
      : el("span", label + " (" + v.entry.type + ")"));
    tr.append(first);
    tr.append(el("td", v.entry.type === "file" ? size(v.entry.size) : "", { class: "size" }));
    tr.append(el("td", when(v.entry.mtime)));
    const held = el("td");
    for (const id of v.snapshots) {
      held.append(el("a", id.slice(0, 8), { href: "#/" + id + "/" + encodePath(parentOf(path)) }));
      held.append(" ");
    }
    tr.append(held);
    body.append(tr);
  });
  $("history-title").textContent = "History of " + path + ": " + versions.length +
    (versions.length === 1 ? " version" : " versions");
  show("history");
}

start();
