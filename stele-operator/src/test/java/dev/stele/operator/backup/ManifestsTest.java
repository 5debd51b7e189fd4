package dev.stele.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.crypto.KdfParams;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Searching a repository's manifests reads each manifest once per process, then only new ones. */
class ManifestsTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
  final InMemoryBlobStore memory = new InMemoryBlobStore(clock);
  final AuditingBlobStore store = new AuditingBlobStore(memory, clock);

  long manifestReads() {
    return store.calls().stream()
        .filter(c -> c.operation() == BlobOperation.READ && c.name().startsWith("snapshots/"))
        .count();
  }

  static Id snapshot(Repository repo, String name) throws IOException {
    return SmallSnapshot.write(
        repo,
        Map.of("note", name.getBytes(StandardCharsets.UTF_8)),
        "/",
        List.of("test"),
        Map.of("name", name),
        null);
  }

  Repository init() throws IOException {
    return Repository.init(
        store,
        "pw".toCharArray(),
        RepositoryInit.defaults(clock)
            .withKdf(
                KdfParams.argon2id(64, 1, "manifests-test!!".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void aDamagedManifestIsSkippedWithOneWarningAndTheOthersAreFound() throws IOException {
    try (Repository repo = init()) {
      snapshot(repo, "a");
      Id damaged = snapshot(repo, "b");
      snapshot(repo, "c");
      String name = BlobKind.SNAPSHOT.nameOf(damaged);
      memory.corrupt(name, (int) memory.stat(name).size() / 2);

      assertThat(Manifests.all(repo)).hasSize(2);
      assertThat(SmallSnapshot.find(repo, "test", "name", "c")).isNotNull();
      assertThat(repo.warnings()).filteredOn(w -> w.contains(name)).hasSize(1);
    }
  }

  @Test
  void eachManifestIsReadOnceThenOnlyNewOnes() throws IOException {
    try (Repository repo = init()) {
      for (String name : List.of("a", "b", "c")) {
        snapshot(repo, name);
      }
      long before = manifestReads();
      assertThat(Manifests.all(repo)).hasSize(3);
      assertThat(manifestReads() - before).isEqualTo(3);

      before = manifestReads();
      assertThat(SmallSnapshot.find(repo, "test", "name", "b")).isNotNull();
      assertThat(Manifests.all(repo)).hasSize(3);
      assertThat(manifestReads() - before).isZero();

      Id d = snapshot(repo, "d");
      before = manifestReads();
      SnapshotCatalog.Entry found = SmallSnapshot.find(repo, "test", "name", "d");
      assertThat(found.id()).isEqualTo(d);
      assertThat(manifestReads() - before).isEqualTo(1);
    }
  }
}
