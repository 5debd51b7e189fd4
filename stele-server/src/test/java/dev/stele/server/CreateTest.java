package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Id;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotUpload;
import dev.stele.snapshot.UploadStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /api/v1/snapshots}: snapshots created through the server by Append users. */
class CreateTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private Path home;
  private byte[] big;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp.resolve("server"));
    home = Files.createDirectories(tmp.resolve("home").resolve("bob"));
    big = new byte[3_000_000];
    new Random(7).nextBytes(big);
    Files.write(home.resolve("big.bin"), big);
    Files.createDirectories(home.resolve("docs"));
    Files.writeString(home.resolve("docs/note.txt"), "first note");
    Files.createSymbolicLink(home.resolve("link"), Path.of("docs/note.txt"));
    Files.writeString(f.users.resolve("bob"), "bob pw");
    Files.writeString(f.users.resolve("alice"), "alice pw");
    Files.writeString(f.users.resolve("carol"), "carol pw");
    Files.writeString(
        f.access,
        """
        {"admins": ["carol"],
         "rules": [{"users": ["bob"], "access": "Append", "hosts": ["laptop-bob"],
                    "paths": ["%s"]},
                   {"users": ["alice"], "access": "Read", "hosts": ["laptop-bob"]}]}
        """
            .formatted(home));
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private String token(String user) throws Exception {
    return f.session(user, user + " pw").get("token").asText();
  }

  private UploadStream.Header header(String host, Path path, String parent) {
    return new UploadStream.Header(
        host, "bob", List.of(path.toString()), List.of(), Map.of(), null, parent);
  }

  /** The upload's body, compared against {@code parent}'s trees read through the server. */
  private byte[] body(String token, UploadStream.Header header, Path source, JsonNode parent)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SnapshotBrowser.ObjectSource trees =
        new SnapshotBrowser.ObjectSource() {
          @Override
          public byte[] tree(Id id) throws java.io.IOException {
            try {
              return f.get(token, "/api/v1/trees/" + id.hex()).body();
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException();
            }
          }

          @Override
          public byte[] chunk(Id id) {
            throw new UnsupportedOperationException();
          }
        };
    new SnapshotUpload(trees, List.of(), FileBackupListener.NONE)
        .write(
            List.of(source),
            header,
            parent == null ? null : Id.parse(parent.get("tree").asText()),
            out);
    return out.toByteArray();
  }

  private HttpResponse<byte[]> post(String token, byte[] body) throws Exception {
    return f.send(
        HttpRequest.newBuilder(f.uri("/api/v1/snapshots"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", UploadStream.MEDIA_TYPE)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  private JsonNode lastAudit() throws Exception {
    List<JsonNode> lines = f.audit();
    return lines.get(lines.size() - 1);
  }

  @Test
  void anAppendUserCreatesASnapshotThatReadsBackByteExact() throws Exception {
    String bob = token("bob");
    HttpResponse<byte[]> r = post(bob, body(bob, header("laptop-bob", home, null), home, null));
    assertThat(r.statusCode()).as(new String(r.body(), UTF_8)).isEqualTo(200);
    JsonNode created = ServerFixture.json(r);
    String id = created.get("id").asText();
    assertThat(created.get("host").asText()).isEqualTo("laptop-bob");
    assertThat(created.get("stats").get("files").asLong()).isEqualTo(3);
    JsonNode audit = lastAudit();
    assertThat(audit.get("action").asText()).isEqualTo("create");
    assertThat(audit.get("snapshot").asText()).isEqualTo(id);
    assertThat(audit.get("bytes").asLong()).isEqualTo(big.length + "first note".length());
    assertThat(f.get(bob, "/api/v1/snapshots/" + id + "/files" + home + "/big.bin").body())
        .isEqualTo(big);

    // An admin sees it, and so does the repository itself, link and all.
    String carol = token("carol");
    assertThat(ServerFixture.json(f.get(carol, "/api/v1/snapshots")).findValuesAsText("id"))
        .contains(id);
    SnapshotCatalog.Entry stored = new SnapshotCatalog(f.repo).resolve(id);
    SnapshotBrowser browser = new SnapshotBrowser(f.repo);
    assertThat(browser.lookup(stored.manifest(), home + "/link").node().target())
        .isEqualTo("docs/note.txt");
    assertThat(new Verify(f.repo).run(true, VerifyListener.NONE).problems()).isEmpty();
  }

  @Test
  void aSecondCreateSendsOnlyTheChangedFilesBytes() throws Exception {
    String bob = token("bob");
    JsonNode first =
        ServerFixture.json(post(bob, body(bob, header("laptop-bob", home, null), home, null)));
    Files.writeString(home.resolve("docs/note.txt"), "second note, longer");
    HttpResponse<byte[]> r =
        post(bob, body(bob, header("laptop-bob", home, first.get("id").asText()), home, first));
    assertThat(r.statusCode()).as(new String(r.body(), UTF_8)).isEqualTo(200);
    JsonNode second = ServerFixture.json(r);
    assertThat(lastAudit().get("bytes").asLong()).isEqualTo("second note, longer".length());
    assertThat(second.get("parent").asText()).isEqualTo(first.get("id").asText());
    assertThat(second.get("stats").get("filesNew").asLong()).isEqualTo(1);
    String id = second.get("id").asText();
    assertThat(f.get(bob, "/api/v1/snapshots/" + id + "/files" + home + "/big.bin").body())
        .isEqualTo(big);
    assertThat(
            new String(
                f.get(bob, "/api/v1/snapshots/" + id + "/files" + home + "/docs/note.txt").body(),
                UTF_8))
        .isEqualTo("second note, longer");
  }

  @Test
  void aReadUserAndAnAppendUserOutsideTheirRuleAreRefused() throws Exception {
    String alice = token("alice");
    assertRefused(alice, header("laptop-bob", home, null), 403);
    String bob = token("bob");
    assertRefused(bob, header("laptop-eve", home, null), 403); // another host
    Path outside = Files.createDirectories(tmp.resolve("home/bobby"));
    Files.writeString(outside.resolve("x"), "x");
    byte[] body = body(bob, header("laptop-bob", outside, null), outside, null);
    assertThat(post(bob, body).statusCode()).isEqualTo(403); // a path outside the prefixes
    // A header inside the rule, with entries outside its paths.
    body = body(bob, header("laptop-bob", home.resolve("docs"), null), tmp.resolve("home"), null);
    HttpResponse<byte[]> r = post(bob, body);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new String(r.body(), UTF_8)).contains("outside the snapshot's paths");
    assertThat(new SnapshotCatalog(f.repo).list()).isEmpty();
  }

  private void assertRefused(String token, UploadStream.Header header, int status)
      throws Exception {
    HttpResponse<byte[]> r = post(token, body(token, header, home, null));
    assertThat(r.statusCode()).as(new String(r.body(), UTF_8)).isEqualTo(status);
    JsonNode audit = lastAudit();
    assertThat(audit.get("action").asText()).isEqualTo("create");
    assertThat(audit.get("allowed").asBoolean()).isFalse();
    assertThat(audit.get("reason").asText()).contains("no Append rule");
  }

  @Test
  void nothingIsForgottenOrDeletedThroughTheServer() throws Exception {
    String carol = token("carol");
    String bob = token("bob");
    String id =
        ServerFixture.json(post(bob, body(bob, header("laptop-bob", home, null), home, null)))
            .get("id")
            .asText();
    for (String method : List.of("DELETE", "PUT", "PATCH")) {
      HttpResponse<byte[]> r =
          f.send(
              HttpRequest.newBuilder(f.uri("/api/v1/snapshots/" + id))
                  .header("Authorization", "Bearer " + carol)
                  .method(method, HttpRequest.BodyPublishers.noBody()));
      assertThat(r.statusCode()).isEqualTo(405);
    }
    assertThat(new SnapshotCatalog(f.repo).list()).hasSize(1);
  }

  @Test
  void anUploadCutOffHalfwayLeavesNoSnapshotAndVerifyPasses() throws Exception {
    String bob = token("bob");
    byte[] whole = body(bob, header("laptop-bob", home, null), home, null);
    HttpResponse<byte[]> r = post(bob, Arrays.copyOf(whole, whole.length / 2));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new String(r.body(), UTF_8)).contains("upload ended before its end");
    assertThat(new SnapshotCatalog(f.repo).list()).isEmpty();
    assertThat(new Verify(f.repo).run(true, VerifyListener.NONE).problems()).isEmpty();
  }
}
