package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.ForwardingBlobStore;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listing snapshots reads their manifests a few at a time, not one round trip after another, and
 * still returns them oldest first, with a damaged one costing only itself.
 */
class ParallelListingTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicInteger mostInFlight = new AtomicInteger();

  /** Each manifest read waits (up to a few seconds) until another is under way too. */
  volatile CountDownLatch twoReading = new CountDownLatch(0);

  final InMemoryBlobStore memory = new InMemoryBlobStore(clock);
  final ForwardingBlobStore store =
      new ForwardingBlobStore(memory) {
        @Override
        public byte[] read(String name) throws IOException {
          if (!name.startsWith(BlobKind.SNAPSHOT.prefix())) {
            return super.read(name);
          }
          mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          try {
            CountDownLatch latch = twoReading;
            latch.countDown();
            latch.await(5, TimeUnit.SECONDS);
            return super.read(name);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
          } finally {
            inFlight.decrementAndGet();
          }
        }
      };

  @TempDir Path source;

  @Test
  void manifestsAreReadConcurrentlyAndListedOldestFirst() throws IOException {
    List<Id> written = new ArrayList<>();
    try (Repository repo = TestRepositories.init(store, TestRepositories.small(clock))) {
      for (int i = 0; i < 12; i++) {
        Files.writeString(source.resolve("f.txt"), "version " + i);
        written.add(TestRepositories.backup(repo, source).id());
        clock.advance(java.time.Duration.ofMinutes(1));
      }
    }
    memory.corrupt(BlobKind.SNAPSHOT.nameOf(written.get(5)), 10);

    twoReading = new CountDownLatch(2);
    try (Repository repo = TestRepositories.open(store, clock)) {
      SnapshotCatalog.Scan scan = new SnapshotCatalog(repo).scan();

      List<Id> expected = new ArrayList<>(written);
      expected.remove(5);
      assertThat(scan.live()).extracting(SnapshotCatalog.Entry::id).isEqualTo(expected);
      assertThat(scan.unreadable())
          .extracting(SnapshotCatalog.Unreadable::id)
          .containsExactly(written.get(5));
    }
    assertThat(mostInFlight.get()).isGreaterThan(1);
  }
}
