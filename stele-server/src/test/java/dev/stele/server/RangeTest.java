package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The one byte range a Range header asks for. */
class RangeTest {
  @Test
  void aRangeIsCutToTheFileAndASuffixCountsFromTheEnd() throws Refusal {
    assertThat(Range.parse("bytes=10-19", 100)).isEqualTo(new Range(10, 19));
    assertThat(Range.parse("bytes=10-", 100)).isEqualTo(new Range(10, 99));
    assertThat(Range.parse("bytes=90-500", 100)).isEqualTo(new Range(90, 99));
    assertThat(Range.parse("bytes=-10", 100)).isEqualTo(new Range(90, 99));
    assertThat(Range.parse("bytes=-500", 100)).isEqualTo(new Range(0, 99));
  }

  @Test
  void whatDoesNotParseOrAsksForSeveralRangesGetsTheWholeFile() throws Refusal {
    assertThat(Range.parse("bytes=0-1,5-6", 100)).isNull();
    assertThat(Range.parse("items=0-1", 100)).isNull();
    assertThat(Range.parse("bytes=-", 100)).isNull();
    assertThat(Range.parse("bytes=20-10", 100)).isNull();
  }

  @Test
  void aRangeStartingPastTheEndIsRefused() {
    assertThatThrownBy(() -> Range.parse("bytes=100-", 100))
        .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.status).isEqualTo(416));
    assertThatThrownBy(() -> Range.parse("bytes=-0", 100))
        .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.status).isEqualTo(416));
    assertThatThrownBy(() -> Range.parse("bytes=0-", 0))
        .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.status).isEqualTo(416));
  }
}
