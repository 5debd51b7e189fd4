package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.ForwardingBlobStore;
import dev.stele.crypto.Kdf;
import dev.stele.repo.Repository;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session of an open repository costs no key derivation, loads its own index, and closing it
 * leaves the store open for the next.
 */
class RepositorySessionTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
  final AtomicInteger closes = new AtomicInteger();
  final ForwardingBlobStore store =
      new ForwardingBlobStore(new InMemoryBlobStore(clock)) {
        @Override
        public void close() {
          closes.incrementAndGet();
        }
      };

  @TempDir Path source;

  @Test
  void sessionsShareTheKeyButLoadTheirOwnIndex() throws IOException {
    Files.writeString(source.resolve("a.txt"), "some data");
    TestRepositories.init(store, TestRepositories.small(clock)).close();
    closes.set(0);
    try (Repository open = TestRepositories.open(store, clock)) {
      long derivations = Kdf.derivations();
      AtomicInteger released = new AtomicInteger();
      for (int i = 0; i < 3; i++) {
        long loads = Repository.indexLoads();
        try (Repository session = open.session(released::incrementAndGet)) {
          TestRepositories.backup(session, source);
          assertThat(session.format()).isEqualTo(open.format());
        }
        assertThat(Repository.indexLoads() - loads).isEqualTo(1);
      }
      assertThat(Kdf.derivations()).isEqualTo(derivations);
      assertThat(released).hasValue(3);
      assertThat(closes).hasValue(0);
    }
    assertThat(closes).hasValue(1);
  }
}
