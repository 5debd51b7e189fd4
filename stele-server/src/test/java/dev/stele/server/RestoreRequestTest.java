package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.snapshot.FileBackup;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore request to a pod volume through the raw API: made only for a pod volume's snapshot the
 * user may read, with a path it has; listed back to its user only.
 */
class RestoreRequestTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result volume;
  private FileBackup.Result other;
  private FileBackup.Result plain;
  private final List<RestoreRequests.Request> made = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp);
    volume =
        f.snapshot(
            "web",
            Map.of("site/index.html", "<h1>hi</h1>".getBytes(UTF_8)),
            List.of("pod-volume"),
            Map.of(
                "stele.dev/pod-namespace", "shop",
                "stele.dev/pod-name", "web-0",
                "stele.dev/volume", "data"));
    other =
        f.snapshot(
            "db",
            Map.of("table", "rows".getBytes(UTF_8)),
            List.of("pod-volume"),
            Map.of(
                "stele.dev/pod-namespace", "billing",
                "stele.dev/pod-name", "db-0",
                "stele.dev/volume", "data"));
    plain =
        f.snapshot(
            "manifests",
            Map.of("a.json", "{}".getBytes(UTF_8)),
            List.of("backup"),
            Map.of("stele.dev/pod-namespace", "shop"));
    Files.writeString(f.users.resolve("alice"), "alice-pw");
    Files.writeString(f.users.resolve("bob"), "bob-pw");
    Files.writeString(
        f.access,
        """
        {"rules": [{"users": ["alice"], "namespaces": ["shop"]},
                   {"users": ["bob"], "namespaces": ["billing"]}]}
        """);
    f.restoreRequests =
        new RestoreRequests() {
          @Override
          public Request create(Ask a) {
            Request r =
                new Request(
                    "req-" + made.size(),
                    a.snapshot(),
                    a.namespace(),
                    a.pod(),
                    a.volume(),
                    List.of(a.path()),
                    a.overwrite(),
                    a.user(),
                    "AwaitingApproval",
                    "awaiting approval");
            made.add(r);
            return r;
          }

          @Override
          public List<Request> list(String user) {
            return made.stream().filter(r -> r.requestedBy().equals(user)).toList();
          }
        };
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private String token(String user) throws Exception {
    return f.session(user, user + "-pw").get("token").asText();
  }

  private HttpResponse<byte[]> ask(String token, FileBackup.Result snapshot, String body)
      throws Exception {
    return f.send(
        HttpRequest.newBuilder(
                f.uri("/api/v1/snapshots/" + snapshot.id().hex() + "/restore-requests"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  @Test
  void aRequestForAReadablePodVolumeSnapshotIsMadeAndListedToItsUser() throws Exception {
    String alice = token("alice");
    HttpResponse<byte[]> r = ask(alice, volume, "{\"path\": \"/site\", \"overwrite\": true}");
    assertThat(r.statusCode()).as(new String(r.body(), UTF_8)).isEqualTo(201);
    assertThat(made)
        .containsExactly(
            new RestoreRequests.Request(
                "req-0",
                volume.id().hex(),
                "shop",
                "web-0",
                "data",
                List.of("/site"),
                true,
                "alice",
                "AwaitingApproval",
                "awaiting approval"));
    JsonNode listed = ServerFixture.json(f.get(alice, "/api/v1/restore-requests"));
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).get("phase").asText()).isEqualTo("AwaitingApproval");
    assertThat(listed.get(0).get("paths").get(0).asText()).isEqualTo("/site");
    assertThat(ServerFixture.json(f.get(token("bob"), "/api/v1/restore-requests"))).isEmpty();
    assertThat(f.auditText()).contains("restore-request");
  }

  @Test
  void anotherUsersSnapshotIsMissingAndANonPodVolumeOneIsRefused() throws Exception {
    String alice = token("alice");
    HttpResponse<byte[]> theirs = ask(alice, other, "{\"path\": \"/table\"}");
    assertThat(theirs.statusCode()).isEqualTo(404);
    assertThat(ServerFixture.json(theirs).get("error").asText()).isEqualTo("no such snapshot");

    HttpResponse<byte[]> notVolume = ask(alice, plain, "{\"path\": \"/a.json\"}");
    assertThat(notVolume.statusCode()).isEqualTo(400);
    assertThat(ServerFixture.json(notVolume).get("error").asText())
        .isEqualTo("snapshot " + plain.id().hex() + " is not a pod volume's");

    assertThat(ask(alice, volume, "{\"path\": \"/nothing\"}").statusCode()).isEqualTo(404);
    assertThat(ask(alice, volume, "{\"path\": \"/site/../..\"}").statusCode()).isEqualTo(400);
    assertThat(made).isEmpty();
  }
}
