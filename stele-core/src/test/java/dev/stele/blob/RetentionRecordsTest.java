package dev.stele.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.Retention.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionRecordsTest {
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

  @TempDir Path root;

  private RetentionRecords records() {
    return new RetentionRecords(root.resolve(".retention"), root.resolve(".tmp"));
  }

  @Test
  void noRecordsMeansNoRetention() throws IOException {
    assertThat(records().read("packs/x")).isEqualTo(Retention.NONE);
  }

  @Test
  void racingWritersNeverShortenEachOther() throws IOException {
    // Two processes recording different retention for one blob, in either order, both count.
    RetentionRecords first = records();
    RetentionRecords second = records();
    first.add("packs/x", Retention.of(Mode.GOVERNANCE, T.plusSeconds(100)));
    second.add("packs/x", Retention.of(Mode.GOVERNANCE, T.plusSeconds(50)));
    assertThat(first.read("packs/x")).isEqualTo(Retention.of(Mode.GOVERNANCE, T.plusSeconds(100)));
  }

  @Test
  void theStrongestModeAndLatestInstantWin() throws IOException {
    RetentionRecords records = records();
    records.add("x", Retention.of(Mode.GOVERNANCE, T.plusSeconds(100)));
    records.add("x", Retention.of(Mode.COMPLIANCE, T.plusSeconds(50)));
    assertThat(records.read("x")).isEqualTo(Retention.of(Mode.COMPLIANCE, T.plusSeconds(100)));
  }

  @Test
  void redundantRecordsArePrunedButNotTheirBetters() throws IOException {
    RetentionRecords records = records();
    records.add("x", Retention.of(Mode.COMPLIANCE, T.plusSeconds(10)));
    records.add("x", Retention.of(Mode.COMPLIANCE, T.plusSeconds(10)));
    records.add("x", Retention.of(Mode.COMPLIANCE, T.plusSeconds(20)));
    records.add("x", Retention.of(Mode.GOVERNANCE, T.plusSeconds(30)));
    try (var files = Files.list(root.resolve(".retention/x"))) {
      assertThat(files).hasSize(2); // COMPLIANCE +20 and GOVERNANCE +30: neither dominates
    }
    assertThat(records.read("x")).isEqualTo(Retention.of(Mode.COMPLIANCE, T.plusSeconds(30)));
  }

  @Test
  void anUnreadableRecordFailsRatherThanCountingAsNone() throws IOException {
    Path dir = Files.createDirectories(root.resolve(".retention/x"));
    Files.writeString(dir.resolve("broken.ret"), "COMPLIANCE yesterday\n");
    assertThatThrownBy(() -> records().read("x"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unreadable retention record");
  }

  @Test
  void removeForgetsEverything() throws IOException {
    RetentionRecords records = records();
    records.add("x", Retention.of(Mode.COMPLIANCE, T));
    records.remove("x");
    assertThat(records.read("x")).isEqualTo(Retention.NONE);
    assertThat(root.resolve(".retention/x")).doesNotExist();
  }
}
