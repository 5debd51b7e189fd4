package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the pacing spends time, counted with a clock that the pauses advance (as sleeping would) and
 * never timed: one user's concurrent answers share the rate, another user's are not held up, and
 * idle time is not saved up as a burst.
 */
class BandwidthTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T20:00:00Z"));
  private final List<Duration> pauses = new ArrayList<>();
  private final Bandwidth bandwidth =
      new Bandwidth(
          clock,
          d -> {
            pauses.add(d);
            clock.advance(d);
          });

  private Duration paused() {
    return pauses.stream().reduce(Duration.ZERO, Duration::plus);
  }

  @Test
  void twoAnswersOfOneUserShareTheRate() throws Exception {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    OutputStream first = bandwidth.limit("bob", 1000, a);
    OutputStream second = bandwidth.limit("bob", 1000, b);
    Instant start = clock.instant();

    for (int i = 0; i < 10; i++) { // interleaved, as two threads' writes would be
      first.write(new byte[1024]);
      second.write(new byte[1024]);
    }

    // 20 KiB at 1000 bytes a second: every piece but the first waited for those before it.
    assertThat(a.size()).isEqualTo(10 * 1024);
    assertThat(b.size()).isEqualTo(10 * 1024);
    assertThat(pauses).hasSize(19).allMatch(d -> d.equals(Duration.ofMillis(1024)));
    assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofMillis(19 * 1024));
  }

  @Test
  void aWriteIsCutIntoPiecesOfATwentiethOfASecond() throws Exception {
    OutputStream out = bandwidth.limit("bob", 1_000_000, OutputStream.nullOutputStream());

    out.write(new byte[1_000_000]);

    assertThat(pauses).hasSize(19).allMatch(d -> d.equals(Duration.ofMillis(50)));
    assertThat(paused()).isEqualTo(Duration.ofMillis(950));
  }

  @Test
  void anotherUserIsNotHeldUp() throws Exception {
    bandwidth.limit("bob", 1000, OutputStream.nullOutputStream()).write(new byte[10_240]);
    pauses.clear();

    bandwidth.limit("carol", 1000, OutputStream.nullOutputStream()).write(new byte[1024]);

    assertThat(pauses).isEmpty();
  }

  @Test
  void idleTimeIsNotSavedUpAsABurst() throws Exception {
    OutputStream out = bandwidth.limit("bob", 1000, OutputStream.nullOutputStream());
    out.write(new byte[1024]);
    clock.advance(Duration.ofHours(1));

    out.write(new byte[3 * 1024]);

    assertThat(pauses).containsExactly(Duration.ofMillis(1024), Duration.ofMillis(1024));
  }
}
