package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.snapshot.FileBackup;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Find, diff and history through the raw API: each searches, compares and lists only the user's
 * snapshots; a snapshot or path not theirs is refused exactly as one that does not exist.
 */
class FindDiffHistoryTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result first;
  private FileBackup.Result second;
  private FileBackup.Result beta;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp);
    Map<String, String> alpha = Map.of("stele.dev/backup-name", "alpha");
    first =
        f.snapshot(
            "alpha",
            Map.of("a.txt", "one".getBytes(UTF_8), "logs/x.log", "x".getBytes(UTF_8)),
            List.of("backup"),
            alpha);
    f.clock.advance(Duration.ofMinutes(1));
    second =
        f.snapshot(
            "alpha",
            Map.of("a.txt", "two!!".getBytes(UTF_8), "logs/x.log", "x".getBytes(UTF_8)),
            List.of("backup"),
            alpha);
    f.clock.advance(Duration.ofMinutes(1));
    beta =
        f.snapshot(
            "beta",
            Map.of("b.txt", "beta secret".getBytes(UTF_8), "logs/y.log", "y".getBytes(UTF_8)),
            List.of("pod-volume"),
            Map.of("stele.dev/pod-namespace", "beta"));
    Files.writeString(f.users.resolve("alice"), "alice-pw");
    Files.writeString(f.users.resolve("bob"), "bob-pw");
    Files.writeString(f.users.resolve("carol"), "carol-pw");
    Files.writeString(
        f.access,
        """
        {"admins": ["carol"],
         "rules": [{"users": ["alice"], "backups": ["alpha"]},
                   {"users": ["bob"], "namespaces": ["beta"]}]}
        """);
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private String token(String user) throws Exception {
    return f.session(user, user + "-pw").get("token").asText();
  }

  private static String root(FileBackup.Result r) {
    return r.manifest().paths().get(0);
  }

  private static String q(String s) {
    return URLEncoder.encode(s, UTF_8);
  }

  /** The paths found, as "snapshot-id path". */
  private List<String> found(String token, String query) throws Exception {
    HttpResponse<byte[]> r = f.get(token, "/api/v1/find?" + query);
    assertThat(r.statusCode()).as(new String(r.body(), UTF_8)).isEqualTo(200);
    List<String> out = new ArrayList<>();
    for (JsonNode s : ServerFixture.json(r)) {
      for (JsonNode m : s.get("matches")) {
        out.add(s.get("snapshot").get("id").asText() + " " + m.get("path").asText());
      }
    }
    return out;
  }

  @Test
  void aSearchFindsOnlyTheUsersOwnSnapshots() throws Exception {
    String a1 = first.id().hex();
    String a2 = second.id().hex();
    String b = beta.id().hex();
    assertThat(found(token("alice"), "pattern=" + q("*.log")))
        .containsExactly(
            a1 + " " + root(first) + "/logs/x.log", a2 + " " + root(first) + "/logs/x.log");
    assertThat(found(token("bob"), "pattern=" + q("*.log") + "&pattern=" + q("*.txt")))
        .containsExactly(b + " " + root(beta) + "/b.txt", b + " " + root(beta) + "/logs/y.log");
    assertThat(found(token("bob"), "pattern=a.txt")).isEmpty();
    assertThat(found(token("carol"), "pattern=" + q("**/logs/*") + "&newestFirst&limit=2"))
        .containsExactly(
            b + " " + root(beta) + "/logs/y.log", a2 + " " + root(first) + "/logs/x.log");
    assertThat(
            found(token("carol"), "pattern=A.TXT&ignoreCase=true&snapshot=" + a1.substring(0, 8)))
        .containsExactly(a1 + " " + root(first) + "/a.txt");

    // Naming another's snapshot is naming one that does not exist.
    var theirs = f.get(token("alice"), "/api/v1/find?pattern=b.txt&snapshot=" + b);
    var none = f.get(token("alice"), "/api/v1/find?pattern=b.txt&snapshot=" + "0".repeat(64));
    assertThat(theirs.statusCode()).isEqualTo(404).isEqualTo(none.statusCode());
    assertThat(theirs.body()).isEqualTo(none.body());
    assertThat(f.get(token("alice"), "/api/v1/find").statusCode()).isEqualTo(400);
  }

  @Test
  void aDiffComparesTwoOfTheUsersSnapshotsAndRefusesAnotherAsMissing() throws Exception {
    String alice = token("alice");
    var diff = f.get(alice, "/api/v1/diff/" + first.id().hex() + "/" + second.id().shortHex());
    assertThat(diff.statusCode()).isEqualTo(200);
    JsonNode changes = ServerFixture.json(diff);
    assertThat(changes.findValuesAsText("kind")).containsExactly("M", "M"); // x.log: its mtime
    assertThat(changes.get(1).get("path").asText()).isEqualTo(root(first) + "/logs/x.log");
    assertThat(changes.get(0).get("path").asText()).isEqualTo(root(first) + "/a.txt");
    assertThat(changes.get(0).get("before").get("size").asLong()).isEqualTo(3);
    assertThat(changes.get(0).get("after").get("size").asLong()).isEqualTo(5);

    var theirs = f.get(alice, "/api/v1/diff/" + first.id().hex() + "/" + beta.id().hex());
    var none = f.get(alice, "/api/v1/diff/" + first.id().hex() + "/" + "0".repeat(64));
    assertThat(theirs.statusCode()).isEqualTo(404).isEqualTo(none.statusCode());
    assertThat(theirs.body()).isEqualTo(none.body());
    assertThat(new String(theirs.body(), UTF_8)).isEqualTo("{\"error\":\"no such snapshot\"}");
    var reversed = f.get(alice, "/api/v1/diff/" + beta.id().hex() + "/" + first.id().hex());
    assertThat(reversed.body()).isEqualTo(none.body());
  }

  @Test
  void aHistoryListsOneVersionPerContentFromTheUsersSnapshotsOnly() throws Exception {
    String path = "/api/v1/history" + root(first) + "/a.txt";
    var history = f.get(token("alice"), path);
    assertThat(history.statusCode()).isEqualTo(200);
    JsonNode versions = ServerFixture.json(history);
    assertThat(versions).hasSize(2);
    assertThat(versions.get(0).get("entry").get("size").asLong()).isEqualTo(5);
    assertThat(versions.get(0).get("snapshots").get(0).asText()).isEqualTo(second.id().hex());
    assertThat(versions.get(1).get("snapshots").get(0).asText()).isEqualTo(first.id().hex());

    // Bob reads no snapshot holding it: the same answer as a path nobody has.
    var bobs = f.get(token("bob"), path);
    var none = f.get(token("bob"), "/api/v1/history/no/such/file");
    assertThat(bobs.statusCode()).isEqualTo(404).isEqualTo(none.statusCode());
    assertThat(bobs.body()).isEqualTo(none.body());
    assertThat(f.audit().stream().map(l -> l.get("action").asText())).contains("history");
  }
}
