package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.repo.Id;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.testing.Await;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two users with different rules on one repository, through the raw HTTP API: each sees, browses
 * and downloads only their own snapshots, and an id from the other's is refused exactly as one that
 * does not exist; logins, sessions, CSRF, paths, ranges and the audit log.
 */
class RepositoryServerTest {
  private static final String ALICE_PW = "alice-password-1";
  private static final String BOB_PW = "bob-password-2";
  private static final String CAROL_PW = "carol-password-3";

  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result alpha;
  private FileBackup.Result beta;
  private byte[] big;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp);
    big = new byte[300_000];
    new Random(14).nextBytes(big);
    byte[] other = new byte[100_000];
    new Random(15).nextBytes(other);
    alpha =
        f.snapshot(
            "alpha",
            Map.of("a.txt", "alpha secret".getBytes(UTF_8), "big.bin", big),
            List.of("backup"),
            Map.of("stele.dev/backup-name", "alpha"));
    beta =
        f.snapshot(
            "beta",
            Map.of("b.txt", "beta secret".getBytes(UTF_8), "data/c.bin", other),
            List.of("pod-volume"),
            Map.of(
                "stele.dev/pod-namespace", "beta",
                "stele.dev/pod-name", "db",
                "stele.dev/volume", "data"));
    Files.writeString(f.users.resolve("alice"), ALICE_PW + "\n");
    Files.writeString(
        f.users.resolve("bob"), OpenBSDBCrypt.generate(BOB_PW.toCharArray(), salt(), 4));
    Files.writeString(f.users.resolve("carol"), argon2id(CAROL_PW));
    Files.writeString(
        f.access,
        """
        {"admins": ["carol"],
         "rules": [{"users": ["alice"], "access": "Read", "backups": ["alpha"]},
                   {"users": ["bob"], "access": "Append", "namespaces": ["beta"]}]}
        """);
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private static byte[] salt() {
    byte[] s = new byte[16];
    new Random(1).nextBytes(s);
    return s;
  }

  private static String argon2id(String password) {
    byte[] salt = salt();
    Argon2BytesGenerator g = new Argon2BytesGenerator();
    g.init(
        new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
            .withVersion(Argon2Parameters.ARGON2_VERSION_13)
            .withMemoryAsKB(1024)
            .withIterations(1)
            .withParallelism(1)
            .withSalt(salt)
            .build());
    byte[] hash = new byte[32];
    g.generateBytes(password.getBytes(UTF_8), hash);
    var b64 = java.util.Base64.getEncoder().withoutPadding();
    return "$argon2id$v=19$m=1024,t=1,p=1$"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(hash);
  }

  private String token(String user, String password) throws Exception {
    return f.session(user, password).get("token").asText();
  }

  private static String root(FileBackup.Result r) {
    return r.manifest().paths().get(0);
  }

  private static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), UTF_8);
  }

  private List<String> snapshotIds(String token) throws Exception {
    List<String> ids = new ArrayList<>();
    for (JsonNode s : ServerFixture.json(f.get(token, "/api/v1/snapshots"))) {
      ids.add(s.get("id").asText());
    }
    return ids;
  }

  @Test
  void eachUserListsBrowsesAndDownloadsOnlyTheirOwnSnapshots() throws Exception {
    String alice = token("alice", ALICE_PW);
    String bob = token("bob", BOB_PW);
    String carol = token("carol", CAROL_PW);
    String a = alpha.id().hex();
    String b = beta.id().hex();
    assertThat(snapshotIds(alice)).containsExactly(a);
    assertThat(snapshotIds(bob)).containsExactly(b);
    assertThat(snapshotIds(carol)).containsExactlyInAnyOrder(a, b);
    JsonNode bobs = ServerFixture.json(f.get(bob, "/api/v1/snapshots")).get(0);
    assertThat(bobs.get("namespace").asText()).isEqualTo("beta");
    assertThat(bobs.get("pod").asText()).isEqualTo("db");
    assertThat(bobs.get("volume").asText()).isEqualTo("data");

    var ls = f.get(alice, "/api/v1/snapshots/" + a + "/ls" + root(alpha));
    assertThat(ls.statusCode()).isEqualTo(200);
    assertThat(ServerFixture.json(ls).findValuesAsText("name")).containsExactly("a.txt", "big.bin");
    var file =
        f.get(
            alice, "/api/v1/snapshots/" + a.substring(0, 12) + "/files" + root(alpha) + "/big.bin");
    assertThat(file.statusCode()).isEqualTo(200);
    assertThat(file.body()).isEqualTo(big);
    var bobFile = f.get(bob, "/api/v1/snapshots/" + b + "/files" + root(beta) + "/b.txt");
    assertThat(text(bobFile)).isEqualTo("beta secret");

    // The other's snapshot, by id, by path, is a snapshot that does not exist.
    String missing = "/api/v1/snapshots/" + "0".repeat(64) + "/ls/";
    var none = f.get(alice, missing);
    var others = f.get(alice, "/api/v1/snapshots/" + b + "/files" + root(beta) + "/b.txt");
    assertThat(others.statusCode()).isEqualTo(404).isEqualTo(none.statusCode());
    assertThat(text(others)).isEqualTo(text(none)).isEqualTo("{\"error\":\"no such snapshot\"}");
    assertThat(f.get(bob, "/api/v1/snapshots/" + a + "/stat/").statusCode()).isEqualTo(404);
  }

  @Test
  void anotherUsersTreeOrChunkIsRefusedExactlyLikeAMissingId() throws Exception {
    String alice = token("alice", ALICE_PW);
    SnapshotBrowser browser = new SnapshotBrowser(f.repo);
    Node alphaBig = browser.find(alpha.manifest(), root(alpha) + "/big.bin");
    Node betaFile = browser.find(beta.manifest(), root(beta) + "/data/c.bin");
    String alphaTree = alpha.manifest().tree();
    String betaTree = beta.manifest().tree();
    String missing = "ab".repeat(32);

    var ownTree = f.get(alice, "/api/v1/trees/" + alphaTree);
    assertThat(ownTree.statusCode()).isEqualTo(200);
    assertThat(ownTree.body()).isEqualTo(f.repo.readChunk(Id.parse(alphaTree)));
    Id ownChunk = alphaBig.chunks().get(0);
    var chunk = f.get(alice, "/api/v1/chunks/" + ownChunk.hex());
    assertThat(chunk.statusCode()).isEqualTo(200);
    assertThat(chunk.body()).isEqualTo(Arrays.copyOf(big, chunk.body().length));

    var otherTree = f.get(alice, "/api/v1/trees/" + betaTree);
    var missingTree = f.get(alice, "/api/v1/trees/" + missing);
    assertThat(otherTree.statusCode()).isEqualTo(404).isEqualTo(missingTree.statusCode());
    assertThat(otherTree.body()).isEqualTo(missingTree.body());
    assertThat(withoutDate(otherTree.headers().map()))
        .isEqualTo(withoutDate(missingTree.headers().map()));

    var otherChunk = f.get(alice, "/api/v1/chunks/" + betaFile.chunks().get(0).hex());
    var missingChunk = f.get(alice, "/api/v1/chunks/" + missing);
    assertThat(otherChunk.statusCode()).isEqualTo(404).isEqualTo(missingChunk.statusCode());
    assertThat(otherChunk.body()).isEqualTo(missingChunk.body());
    // A tree is not served as a chunk either, nor a chunk as a tree.
    assertThat(f.get(alice, "/api/v1/chunks/" + alphaTree).body()).isEqualTo(missingChunk.body());
    assertThat(f.get(alice, "/api/v1/trees/" + ownChunk.hex()).body())
        .isEqualTo(missingTree.body());

    // The admin reaches both.
    String carol = token("carol", CAROL_PW);
    assertThat(f.get(carol, "/api/v1/trees/" + betaTree).statusCode()).isEqualTo(200);
  }

  @Test
  void aRefusedIdOrLoginIsAWarningEventNamingWhoAndWhatButNoSecret() throws Exception {
    String alice = token("alice", ALICE_PW);
    String betaTree = beta.manifest().tree();
    assertThat(f.get(alice, "/api/v1/trees/" + betaTree).statusCode()).isEqualTo(404);
    assertThat(f.login("bob", "not-" + BOB_PW).statusCode()).isEqualTo(401);
    assertThat(f.get(alice, "/api/v1/nothing").statusCode()).isEqualTo(404); // makes none

    List<RefusalEvent> sent =
        Await.until("the server's Events", () -> List.copyOf(f.events), e -> e.size() >= 2);
    assertThat(sent)
        .extracting(RefusalEvent::reason, RefusalEvent::message, RefusalEvent::count)
        .containsExactlyInAnyOrder(
            tuple("AccessRefused", "alice from 127.0.0.1: tree " + betaTree + ": no such tree", 1),
            tuple("LoginRefused", "bob from 127.0.0.1: login: wrong user or password", 1));
    assertThat(sent.toString()).doesNotContain(BOB_PW).doesNotContain(alice);
  }

  /** The headers but Date, which differs whenever two answers straddle a second. */
  static Map<String, List<String>> withoutDate(Map<String, List<String>> headers) {
    Map<String, List<String>> rest = new TreeMap<>(headers);
    rest.remove("date");
    return rest;
  }

  @Test
  void aChangedAccessFileCountsWithoutARestart() throws Exception {
    String alice = token("alice", ALICE_PW);
    String betaTree = "/api/v1/trees/" + beta.manifest().tree();
    assertThat(f.get(alice, betaTree).statusCode()).isEqualTo(404);
    Files.writeString(
        f.access, "{\"rules\": [{\"users\": [\"alice\"], \"tags\": [\"pod-volume\"]}]}");
    assertThat(snapshotIds(alice)).containsExactly(beta.id().hex());
    assertThat(f.get(alice, betaTree).statusCode()).isEqualTo(200);
    assertThat(f.get(alice, "/api/v1/trees/" + alpha.manifest().tree()).statusCode())
        .isEqualTo(404);

    Files.writeString(f.access, "{\"rules\": [{\"users\": [\"alice\"], \"namespace\": [\"x\"]}]}");
    var broken = f.get(alice, "/api/v1/snapshots");
    assertThat(broken.statusCode()).isEqualTo(503);
    assertThat(text(broken)).startsWith("{\"error\":\"access rules unreadable: ");
  }

  @Test
  void aWrongPasswordIsRefusedAndRepeatedFailuresAreThrottled() throws Exception {
    var wrong = f.login("alice", "not it");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(text(wrong)).isEqualTo("{\"error\":\"wrong user or password\"}");
    assertThat(text(f.login("nobody", "x"))).isEqualTo(text(wrong));
    f.login("alice", "not it either");
    f.login("alice", "still not");
    // The right password now waits too: nothing is checked until the delay has passed.
    var throttled = f.login("alice", ALICE_PW);
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(text(throttled)).contains("too many failed logins");
    // The address is throttled too, whichever user it tries next.
    assertThat(f.login("bob", BOB_PW).statusCode()).isEqualTo(429);
    f.clock.advance(Duration.ofSeconds(1));
    f.login("alice", "wrong again");
    assertThat(f.login("alice", ALICE_PW).headers().firstValue("Retry-After")).hasValue("2");
    f.clock.advance(Duration.ofSeconds(2));
    assertThat(f.login("alice", ALICE_PW).statusCode()).isEqualTo(200);
  }

  @Test
  void anExpiredSessionIsRefused() throws Exception {
    String alice = token("alice", ALICE_PW);
    assertThat(f.get(alice, "/api/v1/snapshots").statusCode()).isEqualTo(200);
    f.clock.advance(Duration.ofMinutes(29));
    assertThat(f.get(alice, "/api/v1/snapshots").statusCode()).isEqualTo(200);
    f.clock.advance(Duration.ofMinutes(30));
    var expired = f.get(alice, "/api/v1/snapshots");
    assertThat(expired.statusCode()).isEqualTo(401);
    assertThat(text(expired)).isEqualTo("{\"error\":\"session expired or unknown; log in again\"}");

    // Used all along, a session still ends 12 hours after its login.
    String bob = token("bob", BOB_PW);
    for (int i = 0; i < 24; i++) { // 24 × 29 min: 11 h 36 min
      f.clock.advance(Duration.ofMinutes(29));
      assertThat(f.get(bob, "/api/v1/session").statusCode()).isEqualTo(200);
    }
    f.clock.advance(Duration.ofMinutes(29));
    assertThat(f.get(bob, "/api/v1/session").statusCode()).isEqualTo(401);
  }

  @Test
  void aCookieAuthenticatedPostNeedsTheSessionsOwnCsrfToken() throws Exception {
    JsonNode earlier = f.session("alice", ALICE_PW);
    JsonNode now = f.session("alice", ALICE_PW);
    String cookie = Api.COOKIE + "=" + now.get("token").asText();
    var login = f.login("alice", ALICE_PW);
    assertThat(login.headers().firstValue("Set-Cookie").orElseThrow())
        .endsWith("; Path=/; HttpOnly; Secure; SameSite=Strict");

    HttpRequest.Builder logout =
        HttpRequest.newBuilder(f.uri("/api/v1/logout"))
            .header("Cookie", cookie)
            .POST(HttpRequest.BodyPublishers.noBody());
    var missing = f.send(logout);
    assertThat(missing.statusCode()).isEqualTo(403);
    assertThat(text(missing)).contains("CSRF");
    var replayed = f.send(logout.copy().header(Api.CSRF_HEADER, earlier.get("csrf").asText()));
    assertThat(replayed.statusCode()).isEqualTo(403);
    var cookieGet =
        f.send(HttpRequest.newBuilder(f.uri("/api/v1/session")).header("Cookie", cookie).GET());
    assertThat(ServerFixture.json(cookieGet).get("csrf").asText())
        .isEqualTo(now.get("csrf").asText());
    var right = f.send(logout.copy().header(Api.CSRF_HEADER, now.get("csrf").asText()));
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(f.get(now.get("token").asText(), "/api/v1/snapshots").statusCode()).isEqualTo(401);
    // A bearer token is no browser's ambient credential: no CSRF token needed.
    var bearer =
        f.send(
            HttpRequest.newBuilder(f.uri("/api/v1/logout"))
                .header("Authorization", "Bearer " + earlier.get("token").asText())
                .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(bearer.statusCode()).isEqualTo(200);
  }

  @Test
  void pathTraversalIsRefused() throws Exception {
    String alice = token("alice", ALICE_PW);
    String base = "/api/v1/snapshots/" + alpha.id().hex() + "/files" + root(alpha);
    for (String bad :
        List.of(
            base + "/../../beta/b.txt",
            base + "/%2E%2E/x",
            base + "%2Fa.txt",
            base + "/a.txt%00",
            "/api/v1/./snapshots")) {
      var r = f.get(alice, bad);
      assertThat(r.statusCode()).as(bad).isEqualTo(400);
      assertThat(text(r)).as(bad).startsWith("{\"error\":\"path refused: ");
    }
    assertThat(f.get(alice, base + "/a.txt").statusCode()).isEqualTo(200);
  }

  @Test
  void aRangePastTheEndIs416AndADownloadResumes() throws Exception {
    String alice = token("alice", ALICE_PW);
    String path = "/api/v1/snapshots/" + alpha.id().hex() + "/files" + root(alpha) + "/big.bin";
    var past = f.get(alice, path, "Range", "bytes=" + big.length + "-");
    assertThat(past.statusCode()).isEqualTo(416);
    assertThat(past.headers().firstValue("Content-Range")).hasValue("bytes */" + big.length);

    var first = f.get(alice, path, "Range", "bytes=0-99999");
    assertThat(first.statusCode()).isEqualTo(206);
    assertThat(first.headers().firstValue("Content-Length")).hasValue("100000");
    String etag = first.headers().firstValue("ETag").orElseThrow();
    var rest = f.get(alice, path, "Range", "bytes=100000-", "If-Range", etag);
    assertThat(rest.statusCode()).isEqualTo(206);
    assertThat(rest.headers().firstValue("Content-Range"))
        .hasValue("bytes 100000-" + (big.length - 1) + "/" + big.length);
    byte[] whole = new byte[big.length];
    System.arraycopy(first.body(), 0, whole, 0, 100_000);
    System.arraycopy(rest.body(), 0, whole, 100_000, rest.body().length);
    assertThat(whole).isEqualTo(big);
    var tail = f.get(alice, path, "Range", "bytes=-10");
    assertThat(tail.body()).isEqualTo(Arrays.copyOfRange(big, big.length - 10, big.length));
  }

  @Test
  void aUserAddedToTheDirectoryLogsInWithoutARestart() throws Exception {
    assertThat(f.login("dave", "dave-password").statusCode()).isEqualTo(401);
    f.clock.advance(Duration.ofSeconds(1));
    Files.writeString(f.users.resolve("dave"), "dave-password");
    assertThat(f.login("dave", "dave-password").statusCode()).isEqualTo(200);
    Files.delete(f.users.resolve("alice"));
    assertThat(f.login("alice", ALICE_PW).statusCode()).isEqualTo(401);
  }

  @Test
  void everyRefusalIsAuditedAndNoLineHoldsASecret() throws Exception {
    f.login("alice", "wrong-guess");
    JsonNode session = f.session("alice", ALICE_PW);
    String token = session.get("token").asText();
    f.get(token, "/api/v1/snapshots");
    f.get(token, "/api/v1/trees/" + beta.manifest().tree());
    f.get(token, "/api/v1/snapshots/" + alpha.id().hex() + "/files" + root(alpha) + "/big.bin");
    f.get(token, "/api/v1/snapshots/" + alpha.id().hex() + "/files/../x");

    List<JsonNode> lines = f.audit();
    assertThat(lines)
        .extracting(l -> l.get("action").asText())
        .containsExactly("login", "login", "snapshots", "tree", "files", "unknown");
    assertThat(lines)
        .extracting(l -> l.get("allowed").asBoolean())
        .containsExactly(false, true, true, false, true, false);
    assertThat(lines.get(0).get("reason").asText()).isEqualTo("wrong user or password");
    assertThat(lines.get(0).get("user").asText()).isEqualTo("alice");
    assertThat(lines.get(3).get("reason").asText()).isEqualTo("no such tree");
    assertThat(lines.get(3).get("path").asText()).isEqualTo(beta.manifest().tree());
    assertThat(lines.get(4).get("bytes").asLong()).isEqualTo(big.length);
    assertThat(lines.get(4).get("snapshot").asText()).isEqualTo(alpha.id().hex());
    assertThat(lines.get(5).get("reason").asText()).startsWith("path refused");
    assertThat(f.auditText())
        .doesNotContain(ALICE_PW, "wrong-guess", token, session.get("csrf").asText());
  }

  @Test
  void theFingerprintIsTheCertificatesSha256() throws Exception {
    byte[] digest =
        java.security.MessageDigest.getInstance("SHA-256").digest(f.certificate().getEncoded());
    assertThat(f.fingerprint()).isEqualTo("sha256:" + java.util.HexFormat.of().formatHex(digest));
    var health = f.send(HttpRequest.newBuilder(f.uri("/healthz")).GET());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(text(health)).isEqualTo("ok\n");
  }
}
