// Stele's page: logs in with the server's API, lists the user's snapshots, browses and
// downloads. Plain DOM, text only (never innerHTML), state in the URL's fragment:
// #/<snapshot id>/<path segments, percent-encoded>. The session is the server's HttpOnly
// cookie; the CSRF token it gives is sent with the one change the page makes, logging out.
"use strict";

const api = "/api/v1";
let csrf = "";

const $ = (id) => document.getElementById(id);

function show(section) {
  for (const id of ["login", "snapshots", "browser"]) {
    $(id).hidden = id !== section;
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
  show("snapshots");
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
    } else {
      name.append(el("span", e.name + (e.target ? " → " + e.target : "") + " (" + e.type + ")"));
    }
    tr.append(name);
    tr.append(el("td", e.type === "file" ? size(e.size) : "", { class: "size" }));
    tr.append(el("td", new Date(e.mtime).toLocaleString()));
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

start();
