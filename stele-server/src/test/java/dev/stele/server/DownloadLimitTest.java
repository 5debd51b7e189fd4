package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.snapshot.FileBackup;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access file's {@code limits} pace what the server sends a user: a known byte count takes the
 * time its rate gives, counted on the fixture's clock, which the pauses advance; a user without a
 * limit is not paced, and a login is never paced.
 */
class DownloadLimitTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private FileBackup.Result snapshot;
  private final byte[] data = new byte[300_000];

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp);
    new Random(7).nextBytes(data);
    snapshot =
        f.snapshot(
            "alpha", Map.of("data.bin", data), List.of(), Map.of("stele.dev/backup-name", "alpha"));
    Files.writeString(f.users.resolve("bob"), "bob-password");
    Files.writeString(f.users.resolve("ann"), "ann-password");
    Files.writeString(
        f.access,
        """
        {"rules": [{"users": ["bob", "ann"], "backups": ["alpha"]}],
         "limits": {"bob": {"downloadBytesPerSecond": 100000}}}
        """);
    f.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private HttpResponse<byte[]> download(String user) throws Exception {
    String token = f.session(user, user + "-password").get("token").asText();
    f.pauses.clear();
    return f.get(
        token,
        "/api/v1/snapshots/"
            + snapshot.id().hex()
            + "/files"
            + snapshot.manifest().paths().get(0)
            + "/data.bin");
  }

  @Test
  void aLimitedUsersDownloadTakesTheTimeItsRateGives() throws Exception {
    HttpResponse<byte[]> r = download("bob");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(data);
    // 300 000 bytes at 100 000 a second: 3 s, less the last piece's time (at most 1/20 s), which
    // is waited for by the next write only.
    Duration paused = f.pauses.stream().reduce(Duration.ZERO, Duration::plus);
    assertThat(paused).isBetween(Duration.ofMillis(2950), Duration.ofMillis(3000));
  }

  @Test
  void aUserWithoutALimitIsNotPaced() throws Exception {
    HttpResponse<byte[]> r = download("ann");

    assertThat(r.body()).isEqualTo(data);
    assertThat(f.pauses).isEmpty();
  }
}
