package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A repository reads each tombstone once: asking again for the tombstones costs a listing, plus
 * only those written since. (Opening a repository reads them all; the operator asks again in the
 * same pass.)
 */
class TombstoneReadsTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
  final AuditingBlobStore store = new AuditingBlobStore(new InMemoryBlobStore(clock), clock);

  long tombstoneReads() {
    return store.calls().stream()
        .filter(c -> c.operation() == BlobOperation.READ && c.name().startsWith("tombstones/"))
        .count();
  }

  static Id id(int n) {
    return Id.parse(String.format("%064x", n));
  }

  @Test
  void eachTombstoneIsReadOncePerOpenRepository() throws IOException {
    try (Repository repo = TestRepositories.init(store, TestRepositories.small(clock))) {
      SnapshotCatalog catalog = new SnapshotCatalog(repo);
      for (int n = 1; n <= 3; n++) {
        catalog.forget(id(n), "test");
      }
      long before = tombstoneReads();
      assertThat(repo.tombstones()).hasSize(3);
      assertThat(tombstoneReads() - before).isEqualTo(3);

      before = tombstoneReads();
      assertThat(repo.tombstones()).hasSize(3);
      assertThat(tombstoneReads() - before).isZero();

      catalog.forget(id(4), "test");
      before = tombstoneReads();
      assertThat(repo.tombstoned()).hasSize(4);
      assertThat(tombstoneReads() - before).isEqualTo(1);
    }
  }
}
