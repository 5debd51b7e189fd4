package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.Retention;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotWriter;
import dev.stele.snapshot.Tree;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one commit of a snapshot, seen from the store: packs, then the index blob, then the retention
 * of what is reused, then the manifest, last and once.
 */
class SnapshotWriterTest {
  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore memory = new InMemoryBlobStore(clock);
  private final AuditingBlobStore store = new AuditingBlobStore(memory, clock);

  private Repository init() throws IOException {
    return TestRepositories.init(
        store,
        TestRepositories.small(clock).withRetention(Retention.Mode.COMPLIANCE, Duration.ofDays(1)));
  }

  @Test
  void theManifestComesAfterThePacksTheIndexAndTheRetentionOfWhatIsReused() throws IOException {
    Repository repo = init();
    store.setPhase("first");
    SnapshotCatalog.Entry first = commitOne(repo, clock.instant().plus(Duration.ofDays(10)));
    List<AuditingBlobStore.Call> calls = calls("first");
    assertThat(sequenceOf(calls, BlobOperation.CREATE, "packs/"))
        .isLessThan(sequenceOf(calls, BlobOperation.CREATE, "index/"));
    assertThat(sequenceOf(calls, BlobOperation.CREATE, "index/"))
        .isLessThan(sequenceOf(calls, BlobOperation.CREATE, "snapshots/"));
    assertThat(calls.get(calls.size() - 1).name()).isEqualTo(first.name());

    // The same content a day later, kept longer: nothing is stored, the reused pack is extended.
    clock.advance(Duration.ofDays(1));
    store.setPhase("second");
    Instant expires = clock.instant().plus(Duration.ofDays(30));
    SnapshotCatalog.Entry second = commitOne(repo, expires);
    calls = calls("second");
    assertThat(calls).noneMatch(c -> c.operation() == BlobOperation.CREATE && isPackOrIndex(c));
    long manifest = sequenceOf(calls, BlobOperation.CREATE, "snapshots/");
    assertThat(sequenceOf(calls, BlobOperation.EXTEND_RETENTION, "packs/")).isLessThan(manifest);
    assertThat(calls.get(calls.size() - 1).name()).isEqualTo(second.name());
    for (String pack : memory.names()) {
      if (pack.startsWith("packs/")) {
        assertThat(memory.retention(pack).lastsUntil(expires)).isTrue();
      }
    }
    assertThat(new SnapshotCatalog(repo).list())
        .extracting(SnapshotCatalog.Entry::id)
        .containsExactlyInAnyOrder(first.id(), second.id());
  }

  @Test
  void aManifestWithAnotherTimeOrExpiryThanTheStartIsRefusedAndNothingExists() throws IOException {
    Repository repo = init();
    Instant expires = clock.instant().plus(Duration.ofDays(10));
    try (SnapshotWriter writer = SnapshotWriter.start(repo, 1, clock.instant(), expires)) {
      Id tree = storeOneFile(writer.chunks());
      assertThatThrownBy(
              () ->
                  writer.commit(
                      chunks ->
                          manifest(writer.time(), expires.plus(Duration.ofDays(1)), tree, chunks)))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(memory.names()).noneMatch(n -> n.startsWith("snapshots/"));
  }

  private SnapshotCatalog.Entry commitOne(Repository repo, Instant expires) throws IOException {
    try (SnapshotWriter writer = SnapshotWriter.start(repo, 1, clock.instant(), expires)) {
      Id tree = storeOneFile(writer.chunks());
      return writer.commit(chunks -> manifest(writer.time(), writer.expires(), tree, chunks));
    }
  }

  private static Id storeOneFile(ChunkWriter chunks) throws IOException {
    byte[] content = "the same few bytes".getBytes(StandardCharsets.UTF_8);
    Id data = chunks.store(ChunkType.DATA, content);
    Node file =
        new Node(
            "a",
            Node.Kind.FILE,
            0644,
            0,
            0,
            0,
            0,
            0,
            0,
            1,
            content.length,
            List.of(data),
            null,
            null);
    return chunks.store(ChunkType.TREE, new Tree(List.of(file)).encode());
  }

  private static SnapshotManifest manifest(
      Instant time, Instant expires, Id tree, ChunkWriter chunks) {
    return new SnapshotManifest(
        SnapshotManifest.VERSION,
        time,
        TestRepositories.HOST,
        "test",
        List.of("/a"),
        List.of(),
        null,
        tree.hex(),
        expires,
        new SnapshotManifest.Stats(
            1, 1, 18, 1, chunks.chunksStored(), chunks.bytesNew(), chunks.bytesStored(), 0, 0),
        Map.of());
  }

  private List<AuditingBlobStore.Call> calls(String phase) {
    return store.calls().stream().filter(c -> c.phase().equals(phase)).toList();
  }

  private static boolean isPackOrIndex(AuditingBlobStore.Call call) {
    return call.name().startsWith("packs/") || call.name().startsWith("index/");
  }

  private static long sequenceOf(
      List<AuditingBlobStore.Call> calls, BlobOperation operation, String prefix) {
    return calls.stream()
        .filter(c -> c.operation() == operation && c.name().startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + operation + " of " + prefix + "*"))
        .sequence();
  }
}
