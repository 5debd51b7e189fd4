package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class KnownRetentionTest {
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

  /** A clock the test moves by hand. */
  private static final class HandClock extends Clock {
    Instant now = T0;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void aReadIsTrustedOnlyWhileRecentAndFarEnoughFromItsEnd() {
    HandClock clock = new HandClock();
    KnownRetention known = new KnownRetention(clock);
    Retention twoHours = Retention.of(Mode.COMPLIANCE, T0.plus(Duration.ofHours(2)));
    known.remember("packs/a", "v1", twoHours);
    assertThat(known.trusted("packs/a")).isEqualTo(twoHours);

    clock.now = T0.plus(Duration.ofMinutes(61)); // read too long ago
    assertThat(known.trusted("packs/a")).isNull();
    assertThat(known.recent("packs/a")).isNull();
    assertThat(known.versionId("packs/a")).as("the version id never goes stale").isEqualTo("v1");

    clock.now = T0;
    known.remember("packs/b", "v2", Retention.of(Mode.COMPLIANCE, T0.plus(Duration.ofMinutes(59))));
    assertThat(known.trusted("packs/b")).as("ends within the margin").isNull();
    assertThat(known.recent("packs/b")).isNotNull();
    known.remember("packs/c", "v3", Retention.NONE);
    assertThat(known.trusted("packs/c")).isNull();
  }

  @Test
  void learningTheVersionAgainKeepsTheRetentionReadForIt() {
    KnownRetention known = new KnownRetention(new HandClock());
    Retention r = Retention.of(Mode.GOVERNANCE, T0.plus(Duration.ofHours(3)));
    known.remember("packs/a", "v1", r);
    known.rememberVersion("packs/a", "v1");
    assertThat(known.trusted("packs/a")).isEqualTo(r);
    known.rememberVersion("packs/a", "v9");
    assertThat(known.trusted("packs/a")).as("a read of another version says nothing").isNull();
    known.forget("packs/a");
    assertThat(known.versionId("packs/a")).isNull();
  }
}
