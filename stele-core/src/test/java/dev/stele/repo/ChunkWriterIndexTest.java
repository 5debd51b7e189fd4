package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer names its uploaded packs in an index blob whenever they hold enough chunks, so that what
 * it holds per new chunk is bounded rather than growing with a first backup's size.
 */
class ChunkWriterIndexTest {
  private static final char[] PASSWORD = "batches".toCharArray();
  private static final int CHUNK = 8 << 10; // random, so a 64 KiB pack holds seven or eight

  @TempDir Path root;

  @Test
  void packsAreIndexedInBatchesWhileTheWriterRuns() throws IOException {
    Repository repo = init(FilesystemBlobStore.open(root.resolve("repo")));
    List<Id> ids;
    try (ChunkWriter writer = repo.newWriter(2, null, root.resolve("spool"), 20)) {
      ids = putRandomChunks(writer, 100);
      writer.flush();
    }

    List<Map<String, List<PackEntry>>> named = indexBlobs(repo);
    assertThat(named).hasSizeGreaterThanOrEqualTo(4); // ~24 chunks each, and the rest at flush
    Set<String> union = new HashSet<>();
    for (Map<String, List<PackEntry>> packs : named) {
      for (String pack : packs.keySet()) {
        assertThat(union.add(pack)).as("%s named by one index blob only", pack).isTrue();
      }
    }
    Set<String> stored = new HashSet<>();
    repo.store().list(Pack.PREFIX).forEach(p -> stored.add(p.name()));
    assertThat(union).isEqualTo(stored);

    Repository reopened = Repository.open(repo.store(), PASSWORD, Clock.systemUTC());
    for (Id id : ids) {
      assertThat(reopened.index().hasLive(id)).as("chunk %s", id.shortHex()).isTrue();
    }
  }

  @Test
  void byDefaultASmallWriterWritesOneIndexBlob() throws IOException {
    Repository repo = init(FilesystemBlobStore.open(root.resolve("repo")));
    try (ChunkWriter writer = repo.newWriter(2, null, root.resolve("spool"))) {
      putRandomChunks(writer, 100);
      writer.flush();
    }
    assertThat(indexBlobs(repo)).hasSize(1);
  }

  @Test
  void aBatchIsInTheRepositorysIndexBeforeFlushAndNotStoredAgain() throws Exception {
    CountDownLatch firstIndexBlob = new CountDownLatch(1);
    Repository repo = init(signallingIndexBlobs(firstIndexBlob));
    try (ChunkWriter writer = repo.newWriter(1, null, root.resolve("spool"), 10)) {
      List<Id> ids = putRandomChunks(writer, 60);
      assertThat(firstIndexBlob.await(30, TimeUnit.SECONDS)).isTrue();
      // Before flush, every index blob is a batch's.
      List<Id> batch = new ArrayList<>();
      indexBlobs(repo).get(0).values().forEach(entries -> entries.forEach(e -> batch.add(e.id())));
      assertThat(batch).isNotEmpty();
      // The index takes them in just after their blob is written, on the upload thread.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!batch.stream().allMatch(repo.index()::hasLive)) {
        assertThat(System.nanoTime()).as("batch in the index").isLessThan(deadline);
        Thread.sleep(5);
      }
      for (Id id : ids) {
        assertThat(writer.claim(id)).as("chunk %s", id.shortHex()).isFalse();
      }
      writer.flush();
    }
    int entries = 0;
    for (List<PackEntry> packEntries : repo.index().packs().values()) {
      entries += packEntries.size();
    }
    assertThat(entries).isEqualTo(60);
  }

  @Test
  void aWriterThatFailsAfterABatchNamesOnlyItsUnindexedPacksAsAbandoned() throws Exception {
    CountDownLatch firstIndexBlob = new CountDownLatch(1);
    Repository repo = init(signallingIndexBlobs(firstIndexBlob));
    ChunkWriter writer = repo.newWriter(1, null, root.resolve("spool"), 10);
    putRandomChunks(writer, 40);
    assertThat(firstIndexBlob.await(30, TimeUnit.SECONDS)).isTrue();
    writer.close(); // fails before its flush, as a backup whose source broke would

    Set<String> indexed = new HashSet<>();
    indexBlobs(repo).forEach(packs -> indexed.addAll(packs.keySet()));
    assertThat(indexed).isNotEmpty();
    List<String> abandoned = new ArrayList<>();
    for (MaintenanceRecord record : repo.maintenanceRecords().values()) {
      if (record.isAbandoned()) {
        abandoned.addAll(record.markedPacks());
      }
    }
    assertThat(abandoned).doesNotContainAnyElementsOf(indexed);
    Set<String> stored = new HashSet<>();
    repo.store().list(Pack.PREFIX).forEach(p -> stored.add(p.name()));
    Set<String> unindexed = new HashSet<>(stored);
    unindexed.removeAll(indexed);
    assertThat(abandoned).containsAll(unindexed);
  }

  private Repository init(BlobStore store) throws IOException {
    return SmallPackRepositories.init(store, PASSWORD);
  }

  /** A filesystem store that counts {@code created} down once an index blob is written. */
  private BlobStore signallingIndexBlobs(CountDownLatch created) {
    return new ForwardingBlobStore(FilesystemBlobStore.open(root.resolve("repo"))) {
      @Override
      public void create(String name, byte[] data, Retention retention) throws IOException {
        delegate().create(name, data, retention);
        if (name.startsWith(BlobKind.INDEX.prefix())) {
          created.countDown();
        }
      }
    };
  }

  /** What each index blob names: its packs, with their entries. */
  private static List<Map<String, List<PackEntry>>> indexBlobs(Repository repo) throws IOException {
    List<Map<String, List<PackEntry>>> named = new ArrayList<>();
    for (BlobInfo blob : repo.store().list(BlobKind.INDEX.prefix())) {
      byte[] payload = repo.readBlob(BlobKind.INDEX, BlobKind.INDEX.idOf(blob.name()));
      named.add(IndexCodec.decode(blob.name(), payload).packs());
    }
    return named;
  }

  private static List<Id> putRandomChunks(ChunkWriter writer, int count) throws IOException {
    Random random = new Random(count);
    List<Id> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[CHUNK];
      random.nextBytes(data);
      ids.add(writer.store(ChunkType.DATA, data));
    }
    return ids;
  }
}
