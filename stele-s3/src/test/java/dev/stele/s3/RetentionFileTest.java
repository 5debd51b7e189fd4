package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionFileTest {
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
  private static final byte[] KEY = new byte[32];
  private static final String WHERE = "s3://bucket/repo";
  private static final Retention DAY = Retention.of(Mode.GOVERNANCE, T0.plus(Duration.ofDays(1)));

  @TempDir Path tmp;

  private Path file() {
    return tmp.resolve("cache/s3-retention");
  }

  /** What a process learns at T0, saved at its end. */
  private void firstProcessSaves() {
    KnownRetention known = new KnownRetention(Clock.fixed(T0, ZoneOffset.UTC));
    known.remember("packs/a", "v1", DAY);
    known.rememberVersion("packs/b", "v2");
    known.remember("packs/c", "v3", Retention.NONE);
    new RetentionFile(file(), KEY, WHERE).save(known.current());
  }

  /** A later process, {@code later} after T0, loading the file with {@code key}. */
  private static KnownRetention laterProcess(Path file, Duration later, byte[] key, String where) {
    KnownRetention known = new KnownRetention(Clock.fixed(T0.plus(later), ZoneOffset.UTC));
    known.adopt(new RetentionFile(file, key, where).load());
    return known;
  }

  @Test
  void aLaterProcessTrustsWhatWasReadByTheSameRuleAndNoLonger() {
    firstProcessSaves();
    KnownRetention soon = laterProcess(file(), Duration.ofMinutes(30), KEY, WHERE);
    assertThat(soon.trusted("packs/a")).isEqualTo(DAY);
    assertThat(soon.versionId("packs/a")).isEqualTo("v1");
    assertThat(soon.versionId("packs/b")).isEqualTo("v2");
    assertThat(soon.trusted("packs/b")).as("a version alone says nothing of retention").isNull();
    assertThat(soon.versionId("packs/c")).isEqualTo("v3");
    assertThat(soon.recent("packs/c")).isEqualTo(Retention.NONE);
    assertThat(soon.trusted("packs/c")).isNull();

    KnownRetention late = laterProcess(file(), Duration.ofMinutes(61), KEY, WHERE);
    assertThat(late.trusted("packs/a")).as("read more than an hour ago").isNull();
    assertThat(late.versionId("packs/a")).as("stale entries are not adopted at all").isNull();

    KnownRetention clockBack = laterProcess(file(), Duration.ofMinutes(-5), KEY, WHERE);
    assertThat(clockBack.trusted("packs/a")).as("read after now: the clock was set back").isNull();
  }

  @Test
  void aRetentionEndingWithinTheMarginIsNotTrustedFromTheFile() {
    KnownRetention known = new KnownRetention(Clock.fixed(T0, ZoneOffset.UTC));
    known.remember("packs/a", "v1", Retention.of(Mode.COMPLIANCE, T0.plus(Duration.ofMinutes(80))));
    new RetentionFile(file(), KEY, WHERE).save(known.current());
    KnownRetention later = laterProcess(file(), Duration.ofMinutes(30), KEY, WHERE);
    assertThat(later.trusted("packs/a")).as("ends 50 minutes from now").isNull();
  }

  @Test
  void aForgedOrForeignFileIsIgnored() throws IOException {
    firstProcessSaves();
    String text = Files.readString(file(), StandardCharsets.UTF_8);
    long day = DAY.until().getEpochSecond();
    String forged = text.replace(" " + day + " ", " " + (day + 86_400 * 365) + " ");
    assertThat(forged).isNotEqualTo(text);
    Path forgedFile = tmp.resolve("forged");
    Files.writeString(forgedFile, forged, StandardCharsets.UTF_8);
    assertThat(laterProcess(forgedFile, Duration.ofMinutes(1), KEY, WHERE).trusted("packs/a"))
        .as("an edited retain-until")
        .isNull();

    byte[] otherKey = Arrays.copyOf(KEY, 32);
    otherKey[0] = 1;
    assertThat(laterProcess(file(), Duration.ofMinutes(1), otherKey, WHERE).versionId("packs/a"))
        .as("another repository's key")
        .isNull();
    assertThat(
            laterProcess(file(), Duration.ofMinutes(1), KEY, "s3://copy/repo").trusted("packs/a"))
        .as("a copy of the bucket elsewhere")
        .isNull();

    Files.writeString(file(), text.substring(0, text.length() / 2), StandardCharsets.UTF_8);
    assertThat(laterProcess(file(), Duration.ofMinutes(1), KEY, WHERE).trusted("packs/a"))
        .as("a truncated file")
        .isNull();
    assertThat(laterProcess(tmp.resolve("missing"), Duration.ZERO, KEY, WHERE).trusted("packs/a"))
        .isNull();
  }
}
