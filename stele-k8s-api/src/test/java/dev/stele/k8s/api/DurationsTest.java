package dev.stele.k8s.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void readsWhatSpecsAndTheCommandLineBothWrite() {
    assertThat(Durations.parse("90s", null)).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("1h30m", null)).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("30d", null)).isEqualTo(Duration.ofDays(30));
    assertThat(Durations.parse("500ms", null)).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("2w", null)).isEqualTo(Duration.ofDays(14));
    assertThat(Durations.parse("1y", null)).isEqualTo(Duration.ofDays(365));
    assertThat(Durations.parse(" 12H ", null)).isEqualTo(Duration.ofHours(12));
    assertThat(Durations.parse("P90D", null)).isEqualTo(Duration.ofDays(90));
    assertThat(Durations.parse("pt1h", null)).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("0s", null)).isZero();
  }

  @Test
  void blankIsTheFallback() {
    assertThat(Durations.parse(null, Duration.ofHours(1))).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("  ", Duration.ofHours(1))).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void anythingElseIsRefusedWithAnExample() {
    for (String bad : new String[] {"10", "h", "1h 30m", "1.5h", "P1X", "99999999999999999999d"}) {
      assertThatThrownBy(() -> Durations.parse(bad, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("'" + bad + "' is not a duration (write it like 90s, 1h30m or 30d)");
    }
  }

  @Test
  void formatsTheShortestExactForm() {
    assertThat(Durations.format(Duration.ofDays(30))).isEqualTo("30d");
    assertThat(Durations.format(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
  }
}
