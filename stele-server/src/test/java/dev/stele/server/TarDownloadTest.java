package dev.stele.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.snapshot.FileBackup;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory downloaded as a tar and a tar.gz, unpacked by GNU tar and compared byte for byte with
 * what was backed up: long and non-ASCII names, modes, an empty file, a file of several chunks. A
 * download cut off half-way leaves the server serving; a Range is ignored for an archive.
 */
class TarDownloadTest {
  private static final String PW = "alice-password-1";

  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result snapshot;
  private final Map<String, byte[]> files = new TreeMap<>();
  private String token;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp.resolve("server"));
    byte[] big = new byte[6 << 20];
    new Random(3).nextBytes(big);
    files.put("big.bin", big);
    files.put("empty", new byte[0]);
    files.put("dir/ünïcödé ✓.txt", "unicode".getBytes(UTF_8));
    files.put("dir/" + "long-name-".repeat(15) + ".txt", "long".getBytes(UTF_8));
    files.put("dir/deeper/c.txt", "c".getBytes(UTF_8));
    snapshot = f.snapshot("alpha", files, List.of(), Map.of("stele.dev/backup-name", "alpha"));
    Files.writeString(f.users.resolve("alice"), PW);
    Files.writeString(
        f.access, "{\"rules\": [{\"users\": [\"alice\"], \"backups\": [\"alpha\"]}]}");
    f.start();
    token = f.session("alice", PW).get("token").asText();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private String archive(String form, String path) {
    return "/api/v1/snapshots/"
        + snapshot.id().hex()
        + "/"
        + form
        + snapshot.manifest().paths().get(0)
        + path;
  }

  @Test
  void aDirectoryUnpacksFromItsTarAsItWasBackedUp() throws Exception {
    Path source = tmp.resolve("server/sources/alpha");
    Files.setPosixFilePermissions(
        source.resolve("dir/deeper/c.txt"), PosixFilePermissions.fromString("rwxr-x---"));
    snapshot = f.snapshot("alpha", files, List.of(), Map.of("stele.dev/backup-name", "alpha"));

    HttpResponse<byte[]> tar = f.get(token, archive("tar", ""));

    assertThat(tar.statusCode()).isEqualTo(200);
    assertThat(tar.headers().firstValue("Content-Type")).hasValue("application/x-tar");
    assertThat(tar.headers().firstValue("Content-Disposition"))
        .hasValue("attachment; filename*=UTF-8''alpha.tar");
    Path out = unpack(tar.body(), "-x");
    assertThat(contents(out)).containsExactlyEntriesOf(expected());
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(out.resolve("dir/deeper/c.txt"))))
        .isEqualTo("rwxr-x---");
    assertThat(f.audit().get(f.audit().size() - 1).get("bytes").asLong())
        .isEqualTo(files.values().stream().mapToLong(b -> b.length).sum());
  }

  @Test
  void aSubdirectoryComesAsATarGz() throws Exception {
    HttpResponse<byte[]> tgz = f.get(token, archive("tgz", "/dir"));

    assertThat(tgz.statusCode()).isEqualTo(200);
    assertThat(tgz.headers().firstValue("Content-Type")).hasValue("application/gzip");
    assertThat(tgz.headers().firstValue("Content-Disposition"))
        .hasValue("attachment; filename*=UTF-8''dir.tar.gz");
    Map<String, byte[]> want = new TreeMap<>();
    expected()
        .forEach(
            (k, v) -> {
              if (k.startsWith("dir/") && !k.equals("dir/")) {
                want.put(k.substring(4), v);
              }
            });
    assertThat(contents(unpack(tgz.body(), "-xz"))).containsExactlyEntriesOf(want);
  }

  @Test
  void aFileIsNotATarAndAnotherUsersDirectoryDoesNotExist() throws Exception {
    assertThat(f.get(token, archive("tar", "/big.bin")).statusCode()).isEqualTo(400);
    Files.writeString(f.users.resolve("bob"), "bob-password-2");
    String bob = f.session("bob", "bob-password-2").get("token").asText();
    HttpResponse<byte[]> refused = f.get(bob, archive("tar", "/dir"));
    assertThat(refused.statusCode()).isEqualTo(404);
    assertThat(new String(refused.body(), UTF_8)).isEqualTo("{\"error\":\"no such snapshot\"}");
  }

  @Test
  void aDownloadCutOffHalfWayLeavesTheServerServing() throws Exception {
    HttpResponse<InputStream> started =
        f.send(
            HttpRequest.newBuilder(f.uri(archive("tar", "")))
                .header("Authorization", "Bearer " + token)
                .header("Range", "bytes=0-99"),
            HttpResponse.BodyHandlers.ofInputStream());
    // A Range does not apply to an archive, whose bytes are made as they are sent: all of it comes.
    assertThat(started.statusCode()).isEqualTo(200);
    assertThat(started.headers().firstValue("Content-Range")).isEmpty();
    try (InputStream in = started.body()) {
      assertThat(in.readNBytes(1 << 20)).hasSize(1 << 20);
    } // closed after a sixth: the client goes away

    HttpResponse<byte[]> whole = f.get(token, archive("tar", ""));
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(contents(unpack(whole.body(), "-x"))).containsExactlyEntriesOf(expected());
  }

  /** What the snapshot holds, as unpacked: each file, and each directory as an empty value. */
  private Map<String, byte[]> expected() {
    Map<String, byte[]> want = new TreeMap<>(files);
    want.put("dir/", new byte[0]);
    want.put("dir/deeper/", new byte[0]);
    return want;
  }

  private Path unpack(byte[] archive, String flags) throws Exception {
    Path into = Files.createTempDirectory(tmp, "unpacked");
    Path file = tmp.resolve("archive-" + into.getFileName());
    Files.write(file, archive);
    Process tar =
        new ProcessBuilder("tar", flags + "f", file.toString(), "-C", into.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(tar.getInputStream().readAllBytes(), UTF_8);
    assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue()).as(output).isZero();
    assertThat(output).isEmpty(); // no warning either
    return into;
  }

  private static Map<String, byte[]> contents(Path dir) throws IOException {
    Map<String, byte[]> found = new TreeMap<>();
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        if (p.equals(dir)) {
          continue;
        }
        String name = dir.relativize(p).toString();
        found.put(
            Files.isDirectory(p) ? name + "/" : name,
            Files.isDirectory(p) ? new byte[0] : Files.readAllBytes(p));
      }
    }
    return found;
  }
}
