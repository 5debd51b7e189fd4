package dev.stele.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotReceive;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP API under {@code /api/v1/} (docs/server.md), and {@code /healthz}. Every request but
 * login and health needs a session; every snapshot, path, tree and chunk is looked up among what
 * the user's rules allow, so that one not theirs is answered exactly as one that does not exist.
 * Each request ends with one audit line. It is long because it is the whole surface in one place:
 * every route, and each check in the order it applies.
 *
 * <p>Concurrency: one instance serves every request of the server's threads; it keeps no state of
 * its own, and what it uses (sessions, throttle, rules, snapshots, reachable sets) is thread-safe.
 */
final class Api implements HttpHandler {
  static final String COOKIE = "stele_session";
  static final String CSRF_HEADER = "X-CSRF-Token";
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setDefaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL));
  private static final int MAX_BODY = 64 << 10;

  private final Repository repo;
  private final Users users;
  private final Sessions sessions;
  private final Throttle throttle;
  private final AccessFile access;
  private final Snapshots snapshots;
  private final Reachable reachable;
  private final Audit audit;
  private final Bandwidth bandwidth;
  private final RefusalEvents events;
  private final RestoreRequests restoreRequests;
  private final Clock clock;

  Api(
      Repository repo,
      Users users,
      Sessions sessions,
      Throttle throttle,
      AccessFile access,
      Snapshots snapshots,
      Audit audit,
      Bandwidth bandwidth,
      RefusalEvents events,
      RestoreRequests restoreRequests,
      Clock clock) {
    this.repo = repo;
    this.users = users;
    this.sessions = sessions;
    this.throttle = throttle;
    this.access = access;
    this.snapshots = snapshots;
    this.reachable = new Reachable(repo);
    this.audit = audit;
    this.bandwidth = bandwidth;
    this.events = events;
    this.restoreRequests = restoreRequests;
    this.clock = clock;
  }

  /** Whether a user may be served an object by id. */
  @FunctionalInterface
  interface MayRead {
    boolean test(Id id) throws IOException;
  }

  /** One request as the audit line records it, filled in while it is handled. */
  static final class Request {
    final HttpExchange exchange;
    final String address;
    String action = "unknown";
    @Nullable String user;
    @Nullable String snapshot;
    @Nullable String path;
    long bytes;
    @Nullable String refusal;
    boolean answered;
    boolean authenticated;
    boolean audited;

    Request(HttpExchange exchange) {
      this.exchange = exchange;
      this.address = exchange.getRemoteAddress().getAddress().getHostAddress();
    }

    /** What was asked, for an Event: the action, the snapshot, the path or id. */
    String asked() {
      return action
          + (snapshot == null ? "" : " of snapshot " + snapshot)
          + (path == null ? "" : " " + path);
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    Request r = new Request(exchange);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    Page.HEADERS.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    if (exchange.getRequestURI().getRawPath().equals("/healthz")) {
      try (exchange) { // probes every few seconds: not audited
        r.audited = true;
        send(r, 200, "text/plain; charset=utf-8", "ok\n".getBytes(StandardCharsets.UTF_8));
      }
      return;
    }
    boolean cut = false;
    try {
      route(r, RequestPath.segments(exchange.getRequestURI()));
    } catch (Refusal f) {
      String line = Objects.requireNonNullElse(f.getMessage(), "");
      r.refusal = line;
      String reason = RefusalEvents.reason(r.action, f.status, line);
      if (reason != null) {
        events.refused(reason, r.user, r.address, r.asked(), line);
      }
      if (!r.answered) {
        f.headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        sendJson(r, f.status, Map.of("error", f.getMessage()));
      }
    } catch (IOException | RuntimeException e) {
      r.refusal = "internal error: " + e.getMessage();
      System.err.println("error: " + r.action + " " + r.path + ": " + e);
      if (!r.answered) {
        sendJson(r, 500, Map.of("error", "internal error (the server's log has it)"));
      } else {
        cut = true;
      }
    }
    // A streamed answer's line: written before the answer is closed, so that a client that has
    // its whole answer finds the line.
    try {
      audit(r);
    } finally {
      if (!cut) {
        exchange.close();
      }
    }
    if (cut) {
      // An answer under way cannot change its status. Closing the exchange would end its body
      // cleanly (a chunked zip's last chunk); thrown, the HTTP server drops the connection
      // instead, so the client sees the answer is incomplete.
      throw new IOException("answer cut short: " + r.refusal);
    }
  }

  /** Writes the request's audit line, once. */
  private void audit(Request r) {
    if (!r.audited) {
      r.audited = true;
      audit.write(
          clock.instant(), r.user, r.address, r.action, r.snapshot, r.path, r.bytes, r.refusal);
    }
  }

  private void route(Request r, List<String> s) throws Refusal, IOException {
    String method = r.exchange.getRequestMethod();
    String page = Page.file(s);
    if (page != null) {
      r.action = "page";
      r.path = "/" + String.join("/", s);
      expect(method, "GET");
      send(r, 200, Page.type(page), Page.read(page));
      return;
    }
    if (s.size() < 3 || !s.get(0).equals("api") || !s.get(1).equals("v1")) {
      throw new Refusal(404, "no such endpoint");
    }
    String resource = s.get(2);
    r.action = resource;
    if (resource.equals("login")) {
      expect(method, "POST");
      login(r);
      return;
    }
    Sessions.Session caller = authenticate(r, method);
    if (resource.equals("chunks") && method.equals("POST")) {
      chunks(r, caller, s);
      return;
    }
    switch (resource) {
      case "logout" -> {
        expect(method, "POST");
        sessions.end(token(r.exchange));
        sendJson(r, 200, Map.of("user", caller.user));
      }
      case "session" -> {
        expect(method, "GET");
        sendJson(
            r,
            200,
            Map.of(
                "user", caller.user,
                "admin", rules().isAdmin(caller.user),
                "csrf", caller.csrf));
      }
      case "snapshots" -> {
        if (s.size() == 3 && method.equals("POST")) {
          create(r, caller);
          return;
        }
        if (s.size() == 5 && s.get(4).equals("restore-requests")) {
          expect(method, "POST");
          r.action = "restore-request";
          r.snapshot = s.get(3);
          // Read whole before any refusal: a body left unread would reset the connection.
          byte[] body = RestoreRequestApi.read(r.exchange.getRequestBody());
          sendJson(
              r,
              201,
              RestoreRequestApi.create(
                  restoreRequests,
                  new SnapshotBrowser(repo),
                  caller.user,
                  snapshot(caller, s.get(3)),
                  body));
          return;
        }
        expect(method, "GET");
        snapshots(r, caller, s);
      }
      case "find" -> {
        expect(method, "GET");
        Query query = new Query(r.exchange.getRequestURI().getRawQuery());
        r.path = String.join(" ", query.all("pattern"));
        streamJson(
            r,
            Find.answer(
                new SnapshotBrowser(repo),
                readable(caller),
                spec -> snapshot(caller, spec),
                query));
      }
      case "diff" -> {
        expect(method, "GET");
        if (s.size() != 5) {
          throw new Refusal(404, "no such endpoint");
        }
        r.snapshot = s.get(3) + ".." + s.get(4);
        streamJson(
            r,
            Diff.answer(
                new SnapshotBrowser(repo), snapshot(caller, s.get(3)), snapshot(caller, s.get(4))));
      }
      case "history" -> {
        expect(method, "GET");
        String path = RequestPath.join(s, 3);
        r.path = path;
        sendJson(r, 200, History.answer(new SnapshotBrowser(repo), readable(caller), path));
      }
      case "restore-requests" -> {
        expect(method, "GET");
        sendJson(r, 200, restoreRequests.list(caller.user));
      }
      case "trees", "chunks" -> {
        expect(method, "GET");
        if (s.size() != 4) {
          throw new Refusal(404, "no such endpoint");
        }
        object(r, caller, resource.equals("trees"), s.get(3));
      }
      default -> throw new Refusal(404, "no such endpoint");
    }
  }

  private static void expect(String method, String allowed) throws Refusal {
    if (!method.equals(allowed)) {
      throw new Refusal(405, "method " + method + " not allowed here; use " + allowed);
    }
  }

  // ---- login, sessions, CSRF

  /** The login request's body. */
  record Login(@Nullable String user, @Nullable String password) {}

  private void login(Request r) throws Refusal, IOException {
    String type = r.exchange.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new Refusal(415, "log in with JSON: {\"user\": …, \"password\": …}");
    }
    Login login;
    try {
      login = JSON.readValue(r.exchange.getRequestBody().readNBytes(MAX_BODY), Login.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new Refusal(400, "log in with JSON: {\"user\": …, \"password\": …}");
    }
    String user = login == null ? null : login.user();
    String password = login == null ? null : login.password();
    if (user == null || password == null) {
      throw new Refusal(400, "log in with JSON: {\"user\": …, \"password\": …}");
    }
    r.user = user;
    Duration wait = throttle.wait(user, r.address);
    if (!wait.isZero()) {
      long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
      throw new Refusal(
          429,
          "too many failed logins; try again in " + seconds + " s",
          Map.of("Retry-After", Long.toString(seconds)));
    }
    if (!users.check(user, password)) {
      throttle.failed(user, r.address);
      throw new Refusal(401, "wrong user or password");
    }
    throttle.succeeded(user);
    Sessions.Created created = sessions.create(user);
    r.exchange
        .getResponseHeaders()
        .add(
            "Set-Cookie",
            COOKIE + "=" + created.token() + "; Path=/; HttpOnly; Secure; SameSite=Strict");
    sendJson(
        r,
        200,
        Map.of(
            "user",
            user,
            "token",
            created.token(),
            "csrf",
            created.session().csrf,
            "expires",
            created.expires().toString()));
  }

  private Sessions.Session authenticate(Request r, String method) throws Refusal {
    boolean cookie = r.exchange.getRequestHeaders().getFirst("Authorization") == null;
    String token = token(r.exchange);
    if (token.isEmpty()) {
      throw new Refusal(401, "log in first (POST /api/v1/login)");
    }
    Sessions.Session session = sessions.find(token);
    if (session == null) {
      throw new Refusal(401, "session expired or unknown; log in again");
    }
    r.user = session.user;
    r.authenticated = true;
    if (cookie
        && !method.equals("GET")
        && !session.csrfMatches(r.exchange.getRequestHeaders().getFirst(CSRF_HEADER))) {
      throw new Refusal(403, "missing or wrong CSRF token (header " + CSRF_HEADER + ")");
    }
    return session;
  }

  /** The bearer token, else the session cookie's value, else "". */
  private static String token(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null) {
      return header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : "";
    }
    for (String cookies : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String c : cookies.split(";", -1)) {
        String kv = c.trim();
        if (kv.startsWith(COOKIE + "=")) {
          return kv.substring(COOKIE.length() + 1);
        }
      }
    }
    return "";
  }

  // ---- what a user may read

  private AccessRules rules() throws Refusal {
    try {
      return access.rules();
    } catch (IOException e) {
      throw new Refusal(503, "access rules unreadable: " + e.getMessage());
    }
  }

  private List<SnapshotCatalog.Entry> readable(Sessions.Session caller)
      throws Refusal, IOException {
    AccessRules rules = rules();
    return snapshots.live().stream().filter(e -> rules.mayRead(caller.user, e.manifest())).toList();
  }

  /** The readable snapshot {@code spec} names: its full id or a unique prefix. */
  private SnapshotCatalog.Entry snapshot(Sessions.Session caller, String spec)
      throws Refusal, IOException {
    List<SnapshotCatalog.Entry> found =
        readable(caller).stream().filter(e -> e.id().hex().startsWith(spec)).toList();
    if (spec.length() < 4 || found.isEmpty()) {
      throw Refusal.notFound("snapshot");
    }
    if (found.size() > 1) {
      throw new Refusal(400, "snapshot prefix " + spec + " is ambiguous; give more of the id");
    }
    return found.get(0);
  }

  // ---- snapshots and their files

  private void snapshots(Request r, Sessions.Session caller, List<String> s)
      throws Refusal, IOException {
    if (s.size() == 3) {
      r.action = "snapshots";
      sendJson(r, 200, readable(caller).stream().map(ApiJson.Snapshot::of).toList());
      return;
    }
    r.snapshot = s.get(3);
    SnapshotCatalog.Entry snapshot = snapshot(caller, s.get(3));
    if (s.size() == 4) {
      r.action = "snapshot";
      sendJson(r, 200, ApiJson.Snapshot.of(snapshot));
      return;
    }
    r.action = s.get(4);
    r.path = RequestPath.join(s, 5);
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    SnapshotBrowser.Entry entry = lookup(browser, snapshot.manifest(), r.path);
    switch (r.action) {
      case "ls" -> {
        if (!entry.node().isDirectory()) {
          throw new Refusal(400, r.path + " is not a directory");
        }
        sendJson(
            r,
            200,
            browser.tree(entry.node()).nodes().stream()
                .map(
                    n ->
                        ApiJson.Entry.of(
                            new SnapshotBrowser.Entry(child(entry.path(), n), n), false))
                .toList());
      }
      case "stat" -> sendJson(r, 200, ApiJson.Entry.of(entry, true));
      case "files" -> download(r, entry.node());
      case "zip", "tar", "tgz" ->
          archive(r, browser, entry, Archive.valueOf(r.action.toUpperCase(Locale.ROOT)));
      default -> throw new Refusal(404, "no such endpoint");
    }
  }

  private static String child(String dir, Node n) {
    return dir.endsWith("/") ? dir + n.name() : dir + "/" + n.name();
  }

  private static SnapshotBrowser.Entry lookup(
      SnapshotBrowser browser, SnapshotManifest snapshot, String path) throws Refusal, IOException {
    try {
      return browser.lookup(snapshot, path);
    } catch (NoSuchFileException e) {
      throw Refusal.notFound("path in the snapshot");
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "path refused: " + e.getMessage());
    }
  }

  /** A file's content, or the part of it one Range asks for (206; 416 past the end). */
  private void download(Request r, Node file) throws Refusal, IOException {
    if (!file.isFile()) {
      throw new Refusal(400, r.path + " is not a file");
    }
    long size = file.size();
    String etag = Download.etag(file);
    var headers = r.exchange.getResponseHeaders();
    headers.set("Accept-Ranges", "bytes");
    headers.set("ETag", etag);
    headers.set("Content-Disposition", attachment(FileName.display(file.name())));
    String ifRange = r.exchange.getRequestHeaders().getFirst("If-Range");
    String header = r.exchange.getRequestHeaders().getFirst("Range");
    Range range =
        header == null || (ifRange != null && !ifRange.equals(etag))
            ? null
            : Range.parse(header, size);
    long start = 0;
    long end = size - 1;
    int status = 200;
    if (range != null) {
      start = range.start();
      end = range.end();
      status = 206;
      headers.set("Content-Range", "bytes " + start + "-" + end + "/" + size);
    }
    headers.set("Content-Type", "application/octet-stream");
    long length = end - start + 1;
    r.answered = true;
    r.exchange.sendResponseHeaders(status, length == 0 ? -1 : length);
    if (length > 0) {
      try (OutputStream out = body(r)) {
        r.bytes = Download.copy(repo, file, start, end, out);
      }
    }
  }

  /**
   * A directory as a zip or tar, written to the response as it is read: nothing is kept on the
   * server's disk or in its memory beyond one chunk. Every file is reached from the directory,
   * itself looked up from a snapshot the user reads, so the archive holds only what they may read.
   */
  private void archive(Request r, SnapshotBrowser browser, SnapshotBrowser.Entry dir, Archive form)
      throws Refusal, IOException {
    if (!dir.node().isDirectory()) {
      throw new Refusal(400, r.path + " is not a directory");
    }
    String name = dir.node().name().isEmpty() ? "snapshot" : FileName.display(dir.node().name());
    r.exchange.getResponseHeaders().set("Content-Type", form.type);
    r.exchange.getResponseHeaders().set("Content-Disposition", attachment(name + form.extension));
    r.answered = true;
    r.exchange.sendResponseHeaders(200, 0); // chunked: the length is known only at the end
    OutputStream body = body(r);
    r.bytes = form.write(repo, browser, dir.node(), body);
    body.flush(); // handle closes it once the audit line is written, or cuts it on an error
  }

  private static String attachment(String name) {
    return "attachment; filename*=UTF-8''"
        + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A snapshot uploaded by an Append user ({@link Create}); the audit line counts its bytes. */
  private void create(Request r, Sessions.Session caller) throws Refusal, IOException {
    r.action = "create";
    SnapshotReceive.Received received =
        Create.run(repo, rules(), caller.user, readable(caller), r.exchange.getRequestBody());
    snapshots.changed();
    r.snapshot = received.snapshot().id().hex();
    r.bytes = received.contentBytes();
    sendJson(r, 200, ApiJson.Snapshot.of(received.snapshot()));
  }

  // ---- raw objects

  /** A tree or chunk by id, decrypted: served only if reachable from a snapshot the user reads. */
  private void object(Request r, Sessions.Session caller, boolean tree, String hex)
      throws Refusal, IOException {
    String what = tree ? "tree" : "chunk";
    r.action = what;
    r.path = hex;
    Id id;
    try {
      id = Id.parse(hex);
    } catch (IllegalArgumentException e) {
      throw Refusal.notFound(what);
    }
    if (!mayRead(caller, tree).test(id)) {
      throw Refusal.notFound(what);
    }
    byte[] data = repo.readChunk(id);
    r.bytes = data.length;
    send(r, 200, "application/octet-stream", data);
  }

  /**
   * Which trees (or data chunks) {@code caller} may be served by id: an admin any there is, anyone
   * else those reachable from the snapshots they may read.
   */
  private MayRead mayRead(Sessions.Session caller, boolean tree) throws Refusal, IOException {
    if (rules().isAdmin(caller.user)) {
      return id -> {
        Location where = repo.locate(id);
        return where != null && (where.entry().type() == ChunkType.TREE) == tree;
      };
    }
    Reachable.Objects reach = reachable.of(caller.user, readable(caller));
    return (tree ? reach.trees() : reach.chunks())::contains;
  }

  /** {@code POST /api/v1/chunks[/lengths]}: many chunks in one request ({@link ChunkBatch}). */
  private void chunks(Request r, Sessions.Session caller, List<String> s)
      throws Refusal, IOException {
    r.action = "chunks";
    boolean lengths = s.size() == 4 && s.get(3).equals("lengths");
    if (s.size() != 3 && !lengths) {
      throw new Refusal(404, "no such endpoint");
    }
    List<@Nullable Id> ids = ChunkBatch.ids(r);
    MayRead mayRead = mayRead(caller, false);
    if (lengths) {
      r.action = "chunk-lengths";
      sendJson(r, 200, ChunkBatch.lengths(repo, ids, mayRead));
    } else {
      r.bytes = ChunkBatch.contents(r, repo, ids, mayRead);
    }
  }

  // ---- answers

  private void sendJson(Request r, int status, Object body) throws IOException {
    send(r, status, "application/json", JSON.writeValueAsBytes(body));
  }

  /** What a streamed JSON answer writes, as it reads. */
  interface JsonBody {
    void write(JsonGenerator out) throws IOException;
  }

  /**
   * A JSON answer written as it is made, with chunked transfer encoding, so that it is never whole
   * in memory. Closed only once it is whole: on an error, handle cuts the connection instead.
   */
  private void streamJson(Request r, JsonBody body) throws IOException {
    r.exchange.getResponseHeaders().set("Content-Type", "application/json");
    r.answered = true;
    r.exchange.sendResponseHeaders(200, 0);
    OutputStream out = body(r);
    JsonGenerator json = JSON.getFactory().createGenerator(out);
    body.write(json);
    json.flush(); // handle closes it once the audit line is written, or cuts it on an error
  }

  private void send(Request r, int status, String type, byte[] body) throws IOException {
    var headers = r.exchange.getResponseHeaders();
    headers.set("Content-Type", type);
    r.answered = true;
    // The line first: all is known of a whole answer, and a client that has it finds the line.
    audit(r);
    r.exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    body(r).write(body);
  }

  /** The answer's body, paced at the user's download limit if the access file gives them one. */
  private OutputStream body(Request r) {
    OutputStream out = r.exchange.getResponseBody();
    if (!r.authenticated || r.user == null) {
      return out; // a login's answer is not the claimed user's to pace
    }
    Long rate;
    try {
      rate = access.rules().downloadLimit(r.user);
    } catch (IOException e) {
      return out; // only a refusal is being sent
    }
    return rate == null ? out : bandwidth.limit(r.user, rate, out);
  }
}
