package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.repo.Id;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/chunks} and {@code /chunks/lengths} through the raw API: a user's own chunks
 * come back framed, in order; a chunk of another user's snapshot is answered exactly as an id that
 * does not exist.
 */
class ChunkBatchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private ServerFixture f;
  private Node mine;
  private Node theirs;
  private Node small;
  private String tree;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp);
    byte[] big = new byte[300_000];
    new Random(14).nextBytes(big);
    FileBackup.Result alpha =
        f.snapshot(
            "alpha",
            Map.of("big.bin", big, "a.txt", "alpha".getBytes(UTF_8)),
            List.of(),
            Map.of("stele.dev/backup-name", "a"));
    FileBackup.Result beta =
        f.snapshot(
            "beta",
            Map.of("c.txt", "beta secret".getBytes(UTF_8)),
            List.of(),
            Map.of("stele.dev/backup-name", "b"));
    Files.writeString(f.users.resolve("alice"), "alice-pw");
    Files.writeString(f.users.resolve("carol"), "carol-pw");
    Files.writeString(
        f.access,
        "{\"admins\": [\"carol\"], \"rules\": [{\"users\": [\"alice\"], \"backups\": [\"a\"]}]}");
    f.start();
    tree = alpha.manifest().tree();
    SnapshotBrowser browser = new SnapshotBrowser(f.repo);
    mine = browser.find(alpha.manifest(), alpha.manifest().paths().get(0) + "/big.bin");
    theirs = browser.find(beta.manifest(), beta.manifest().paths().get(0) + "/c.txt");
    small = browser.find(alpha.manifest(), alpha.manifest().paths().get(0) + "/a.txt");
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private HttpResponse<byte[]> post(String user, String path, List<String> ids) throws Exception {
    String token = f.session(user, user + "-pw").get("token").asText();
    return f.send(
        HttpRequest.newBuilder(f.uri(path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofByteArray(
                    JSON.writeValueAsBytes(Map.of("ids", ids)))));
  }

  private List<String> hex(List<Id> ids) {
    return ids.stream().map(Id::hex).toList();
  }

  @Test
  void ownChunksComeBackFramedInTheOrderAsked() throws Exception {
    List<Id> ids = List.of(small.chunks().get(0), mine.chunks().get(0), small.chunks().get(0));
    var r = post("alice", "/api/v1/chunks", hex(ids));
    assertThat(r.statusCode()).isEqualTo(200);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(r.body()));
    for (Id id : ids) {
      assertThat(in.readUnsignedByte()).isEqualTo(ChunkBatch.CHUNK);
      byte[] data = new byte[in.readInt()];
      in.readFully(data);
      assertThat(data).isEqualTo(f.repo.readChunk(id));
    }
    assertThat(in.read()).isEqualTo(-1);

    var lengths = post("alice", "/api/v1/chunks/lengths", hex(ids));
    assertThat(ServerFixture.json(lengths).get("lengths").toString())
        .isEqualTo(
            "["
                + f.repo.readChunk(ids.get(0)).length
                + ","
                + f.repo.readChunk(ids.get(1)).length
                + ","
                + f.repo.readChunk(ids.get(0)).length
                + "]");
  }

  @Test
  void anotherUsersChunkIsRefusedExactlyLikeAMissingOne() throws Exception {
    String own = mine.chunks().get(0).hex();
    String other = theirs.chunks().get(0).hex();
    String missing = "ab".repeat(32);
    var otherBatch = post("alice", "/api/v1/chunks", List.of(own, other));
    var missingBatch = post("alice", "/api/v1/chunks", List.of(own, missing));
    assertThat(otherBatch.statusCode()).isEqualTo(404).isEqualTo(missingBatch.statusCode());
    assertThat(new String(otherBatch.body(), UTF_8))
        .isEqualTo(new String(missingBatch.body(), UTF_8))
        .isEqualTo("{\"error\":\"no such chunk\"}");
    assertThat(RepositoryServerTest.withoutDate(otherBatch.headers().map()))
        .isEqualTo(RepositoryServerTest.withoutDate(missingBatch.headers().map()));
    // A tree is no chunk either.
    var asChunk = post("alice", "/api/v1/chunks", List.of(own, tree));
    assertThat(asChunk.body()).isEqualTo(missingBatch.body());

    var lengths = post("alice", "/api/v1/chunks/lengths", List.of(own, other, missing));
    assertThat(ServerFixture.json(lengths).get("lengths").get(0).isInt()).isTrue();
    assertThat(ServerFixture.json(lengths).get("lengths").get(1).isNull()).isTrue();
    assertThat(ServerFixture.json(lengths).get("lengths").get(2).isNull()).isTrue();

    // The admin reaches the other's chunk.
    assertThat(post("carol", "/api/v1/chunks", List.of(other)).statusCode()).isEqualTo(200);
    // The refusals are audited as such.
    assertThat(f.auditText().lines())
        .anyMatch(l -> l.contains("\"action\":\"chunks\"") && l.contains("no such chunk"));
  }

  @Test
  void tooManyIdsOrNoIdsIsABadRequest() throws Exception {
    List<String> many = java.util.Collections.nCopies(1001, mine.chunks().get(0).hex());
    var r = post("alice", "/api/v1/chunks", many);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new String(r.body(), UTF_8)).contains("at most 1000 ids");
  }
}
