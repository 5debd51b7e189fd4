package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Refusals become few Events: one per user and reason per minute, with a count. */
class RefusalEventsTest {
  private final MutableClock clock = new MutableClock();
  private final List<RefusalEvent> sent = new ArrayList<>();
  private final RefusalEvents events = new RefusalEvents(sent::add, clock);

  @Test
  void fiftyRefusedLoginsAreOneEventWithACount() {
    for (int i = 0; i < 50; i++) {
      events.refused("LoginRefused", "mallory", "10.0.0.9", "login", "wrong user or password");
      clock.advance(Duration.ofMillis(100));
    }
    events.flush();

    assertThat(sent).hasSize(1);
    RefusalEvent e = sent.get(0);
    assertThat(e.reason()).isEqualTo("LoginRefused");
    assertThat(e.count()).isEqualTo(50);
    assertThat(e.message()).isEqualTo("mallory from 10.0.0.9: login: wrong user or password");
    assertThat(Duration.between(e.first(), e.last())).isEqualTo(Duration.ofMillis(4900));
  }

  @Test
  void aFlushSendsOnlyWhatGrewAndTheSameEventKeepsCounting() {
    events.refused("AccessRefused", "bob", "10.0.0.2", "chunk 00ff", "no such chunk");
    events.flush();
    events.flush();
    events.refused("AccessRefused", "bob", "10.0.0.2", "chunk 00fe", "no such chunk");
    events.flush();

    assertThat(sent).extracting(RefusalEvent::count).containsExactly(1, 2);
    assertThat(sent.get(0).id()).isEqualTo(sent.get(1).id());
  }

  @Test
  void aNewMinuteIsANewEventAndTheOldOneGetsItsLastCount() {
    events.refused("LoginRefused", "mallory", "10.0.0.9", "login", "wrong user or password");
    events.flush();
    events.refused("LoginRefused", "mallory", "10.0.0.9", "login", "wrong user or password");
    clock.advance(Duration.ofSeconds(61));
    events.refused("LoginRefused", "mallory", "10.0.0.9", "login", "wrong user or password");
    events.flush();
    events.flush();

    assertThat(sent).extracting(RefusalEvent::count).containsExactly(1, 2, 1);
    assertThat(sent.get(2).id()).isNotEqualTo(sent.get(0).id());
  }

  @Test
  void usersAndReasonsAreCountedApartButManyUsersShareOneEvent() {
    events.refused("LoginRefused", "alice", "10.0.0.1", "login", "wrong user or password");
    events.refused("AccessRefused", "alice", "10.0.0.1", "tree 01", "no such tree");
    for (int i = 0; i < 100; i++) {
      events.refused("LoginRefused", "guess" + i, "10.0.0.9", "login", "wrong user or password");
    }
    events.flush();

    assertThat(sent).hasSize(RefusalEvents.MAX_USERS + 1);
    assertThat(sent.get(sent.size() - 1).message()).startsWith("(more users) from 10.0.0.9");
    assertThat(sent.stream().mapToInt(RefusalEvent::count).sum()).isEqualTo(102);
  }

  @Test
  void whatTheSinkMissedIsSentNextTime() {
    List<RefusalEvent> got = new ArrayList<>();
    boolean[] down = {true};
    RefusalEvents flaky =
        new RefusalEvents(
            e -> {
              if (down[0]) {
                throw new IOException("connection refused");
              }
              got.add(e);
            },
            clock);
    flaky.refused("LoginRefused", "mallory", "10.0.0.9", "login", "throttled");
    flaky.flush();
    down[0] = false;
    flaky.flush();

    assertThat(got).extracting(RefusalEvent::count).containsExactly(1);
  }

  @Test
  void onlyRefusalsOfAccessMakeEvents() {
    assertThat(RefusalEvents.reason("login", 401, "wrong user or password"))
        .isEqualTo("LoginRefused");
    assertThat(RefusalEvents.reason("login", 429, "too many failed logins; try again in 4 s"))
        .isEqualTo("LoginRefused");
    assertThat(RefusalEvents.reason("chunk", 404, "no such chunk")).isEqualTo("AccessRefused");
    assertThat(RefusalEvents.reason("logout", 403, "missing or wrong CSRF token"))
        .isEqualTo("AccessRefused");
    assertThat(RefusalEvents.reason("favicon.ico", 404, "no such endpoint")).isNull();
    assertThat(RefusalEvents.reason("snapshots", 401, "session expired or unknown; log in again"))
        .isNull();
    assertThat(RefusalEvents.reason("login", 400, "log in with JSON")).isNull();
  }
}
