package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The in-memory index: what it finds, which copy wins, and that readers never miss a chunk. */
class IndexTest {
  private final Random random = new Random(12);

  private Id id() {
    byte[] bytes = new byte[Id.BYTES];
    random.nextBytes(bytes);
    return Id.of(bytes);
  }

  private static PackEntry entry(Id id, int n) {
    return new PackEntry(id, n % 3 == 0 ? ChunkType.TREE : ChunkType.DATA, 8 + n, 60 + n, n);
  }

  private static Index index(Set<String> marked) {
    return new Index(List.of(), List.of(), List.of(), marked);
  }

  private static String pack(int n) {
    return "packs/" + n;
  }

  @Test
  void everyChunkOfManyPacksIsFoundWhereItWasAdded() {
    Index index = index(Set.of());
    Map<Id, Location> expected = new java.util.HashMap<>();
    for (int p = 0; p < 20_000; p++) {
      List<PackEntry> entries = new ArrayList<>();
      for (int i = 0; i < 1 + p % 17; i++) {
        PackEntry e = entry(id(), p + i);
        entries.add(e);
        expected.put(e.id(), new Location(pack(p), e));
      }
      index.add(pack(p), entries);
    }
    assertThat(index.chunkCount()).isEqualTo(expected.size());
    expected.forEach((id, location) -> assertThat(index.find(id)).isEqualTo(location));
    assertThat(index.find(id())).isNull();
    assertThat(index.packs()).hasSize(20_000);
    assertThat(index.packs().get(pack(16))).hasSize(17);
    for (var pack : index.packs().entrySet()) {
      for (PackEntry e : pack.getValue()) {
        assertThat(expected.get(e.id())).isEqualTo(new Location(pack.getKey(), e));
      }
    }
  }

  @Test
  void entriesAddedStraightFromAnIndexPayloadAreFoundAsEncoded() throws Exception {
    Map<String, List<PackEntry>> packs = new LinkedHashMap<>();
    int total = 0;
    for (int p = 0; p < 300; p++) {
      List<PackEntry> entries = new ArrayList<>();
      for (int i = 0; i < 1 + p % 7; i++, total++) {
        // offsets and raw lengths that fill all four bytes, high bits included
        int n = 1_000_003 * (total + 1);
        int offset = 8 + (n & 0x3fff_ffff);
        entries.add(
            new PackEntry(
                id(),
                total % 2 == 0 ? ChunkType.DATA : ChunkType.TREE,
                offset,
                60 + total,
                n >>> 1));
      }
      packs.put(pack(p), entries);
    }
    IndexCodec.Contents decoded = IndexCodec.decode("index/t", IndexCodec.encode(List.of(), packs));
    Index index = index(Set.of());

    index.reserve(total);
    decoded.packs().forEach(index::add);

    assertThat(index.chunkCount()).isEqualTo(total);
    packs.forEach(
        (pack, entries) ->
            entries.forEach(e -> assertThat(index.find(e.id())).isEqualTo(new Location(pack, e))));
    assertThat(index.packs()).isEqualTo(packs);
  }

  @Test
  void aChunkInAnUnmarkedPackWinsWhicheverComesFirst() {
    Id early = id();
    Id late = id();
    Index index = index(Set.of("marked"));
    index.add("marked", List.of(entry(early, 1)));
    index.add("live", List.of(entry(early, 2), entry(late, 3)));
    index.add("marked", List.of(entry(late, 4)));
    assertThat(index.find(early).pack()).isEqualTo("live");
    assertThat(index.find(late).pack()).isEqualTo("live");
    assertThat(index.hasLive(early)).isTrue();
    assertThat(index.chunkCount()).isEqualTo(2);
  }

  @Test
  void aChunkOnlyInAMarkedPackIsFoundButNotLive() {
    Id id = id();
    Index index = index(Set.of("marked"));
    index.add("marked", List.of(entry(id, 1)));
    assertThat(index.find(id)).isEqualTo(new Location("marked", entry(id, 1)));
    assertThat(index.hasLive(id)).isFalse();
    assertThat(index.livePack(id)).isNull();
  }

  @Test
  void aDistrustedPackStopsCountingAndALaterCopyWins() {
    Id id = id();
    Index index = index(Set.of());
    index.add("damaged", List.of(entry(id, 1)));
    index.add("other", List.of(entry(id, 2)));
    assertThat(index.find(id).pack()).isEqualTo("damaged"); // the first unmarked copy stays
    index.distrust(Set.of("damaged"));
    assertThat(index.hasLive(id)).isFalse();
    assertThat(index.find(id).pack()).isEqualTo("damaged");
    index.add("rewritten", List.of(entry(id, 3)));
    assertThat(index.livePack(id)).isEqualTo("rewritten");
    assertThat(index.find(id)).isEqualTo(new Location("rewritten", entry(id, 3)));
  }

  @Test
  void aPackAddedAgainHasItsNewEntriesAndKeepsItsChunksFound() {
    Id kept = id();
    Id dropped = id();
    Index index = index(Set.of());
    index.add("p", List.of(entry(kept, 1), entry(dropped, 2)));
    index.add("p", List.copyOf(index.packs().get("p"))); // a compacted index naming it again
    assertThat(index.packs().get("p")).containsExactly(entry(kept, 1), entry(dropped, 2));
    index.add("p", List.of(entry(kept, 1)));
    assertThat(index.packs().get("p")).containsExactly(entry(kept, 1));
    assertThat(index.packs()).hasSize(1);
    assertThat(index.find(kept)).isEqualTo(new Location("p", entry(kept, 1)));
    assertThat(index.chunkCount()).isEqualTo(2);
  }

  @Test
  void packsIsAReadOnlyView() {
    Index index = index(Set.of());
    index.add("p", List.of(entry(id(), 1)));
    assertThatThrownBy(() -> index.packs().put("q", List.of()))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> index.packs().get("p").set(0, entry(id(), 2)))
        .isInstanceOf(UnsupportedOperationException.class);
    var entries = index.packs().entrySet().iterator();
    entries.next();
    assertThatThrownBy(entries::remove).isInstanceOf(UnsupportedOperationException.class);
    assertThat(index.packs()).containsOnlyKeys("p");
  }

  /**
   * Two writers add packs (the table grows many times over) while two readers look up chunks whose
   * add has returned: each must be found, in its pack, every time.
   */
  @Test
  void readersFindEveryAddedChunkWhileTheTableGrows() throws Exception {
    Index index = index(Set.of());
    int writers = 2;
    int packsPerWriter = 2_000;
    int perPack = 50;
    List<Id[]> ids = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Id[] mine = new Id[packsPerWriter * perPack];
      for (int i = 0; i < mine.length; i++) {
        mine[i] = id();
      }
      ids.add(mine);
    }
    AtomicInteger[] done = {new AtomicInteger(), new AtomicInteger()}; // packs added per writer
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger lookups = new AtomicInteger();
    ConcurrentLinkedQueue<String> misses = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(
          new Thread(
              () -> {
                await(start);
                Id[] mine = ids.get(writer);
                for (int p = 0; p < packsPerWriter; p++) {
                  List<PackEntry> entries = new ArrayList<>();
                  for (int i = p * perPack; i < (p + 1) * perPack; i++) {
                    entries.add(entry(mine[i], i));
                  }
                  index.add(writer + "/" + p, entries);
                  done[writer].set(p + 1);
                }
              },
              "index-writer-" + w));
    }
    for (int r = 0; r < 2; r++) {
      long seed = r;
      threads.add(
          new Thread(
              () -> {
                await(start);
                Random pick = new Random(seed);
                while (writing.get()) {
                  int writer = pick.nextInt(writers);
                  int packs = done[writer].get();
                  if (packs == 0) {
                    continue;
                  }
                  // the newest pack most often: it is the one a resize may be moving
                  int p = pick.nextBoolean() ? packs - 1 : pick.nextInt(packs);
                  int i = p * perPack + pick.nextInt(perPack);
                  Location found = index.find(ids.get(writer)[i]);
                  if (found == null || !found.pack().equals(writer + "/" + p)) {
                    misses.add(writer + "/" + p + " #" + i + ": " + found);
                  }
                  lookups.incrementAndGet();
                }
              },
              "index-reader-" + r));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (int w = 0; w < writers; w++) {
      threads.get(w).join();
    }
    writing.set(false);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(misses).isEmpty();
    assertThat(lookups.get()).isPositive();
    assertThat(index.chunkCount()).isEqualTo(writers * packsPerWriter * perPack);
    for (Id[] mine : ids) {
      for (Id id : mine) {
        assertThat(index.hasLive(id)).isTrue();
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
