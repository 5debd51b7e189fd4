package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link BlobStore} contract, as tests every store must pass. Extend it and implement {@link
 * #newStore}; each test gets a fresh, empty store.
 *
 * <p>Retention tests move a {@link MutableClock} by default. A store that judges retention by a
 * clock it does not share — a real S3 server — overrides {@link #clockControlsRetention()} to
 * return false; the tests then use {@link #retentionPeriod()} of real time (short, a few seconds)
 * and wait it out. Such a store should also override {@link #retentionPeriod()} only if the server
 * needs more than the default.
 */
public abstract class BlobStoreContractTest {
  private static final Random SEEDED = new Random(20300101L);

  protected MutableClock clock;
  protected BlobStore store;

  /** A new, empty store that judges retention by {@code clock} (or by its own, see above). */
  protected abstract BlobStore newStore(MutableClock clock) throws IOException;

  /** False when the store judges retention by a clock the test cannot move. */
  protected boolean clockControlsRetention() {
    return true;
  }

  /**
   * True for a store that reads a range into the caller's buffer when it is long enough (the
   * filesystem and S3 stores: restore relies on it for its memory); others may answer with a new
   * array.
   */
  protected boolean readsIntoTheCallersBuffer() {
    return false;
  }

  /**
   * How long retention lasts in these tests: long when the clock is moved, short when it is real.
   */
  protected Duration retentionPeriod() {
    return clockControlsRetention() ? Duration.ofDays(30) : Duration.ofSeconds(3);
  }

  @BeforeEach
  void openStore() throws IOException {
    clock = new MutableClock();
    store = newStore(clock);
  }

  @AfterEach
  void closeStore() throws IOException {
    if (store != null) {
      store.close();
    }
  }

  /** Now, by the clock retention is judged by, in whole seconds as object lock stores keep it. */
  Instant now() {
    Instant now = clockControlsRetention() ? clock.instant() : Instant.now();
    return now.truncatedTo(ChronoUnit.SECONDS);
  }

  Instant retainedUntil() {
    return now().plus(retentionPeriod()).plusSeconds(1);
  }

  private void letRetentionExpire() throws InterruptedException {
    Duration wait = retentionPeriod().plusSeconds(2);
    if (clockControlsRetention()) {
      clock.advance(wait);
    } else {
      Thread.sleep(wait.toMillis());
    }
  }

  static byte[] bytes(int length) {
    byte[] data = new byte[length];
    synchronized (SEEDED) {
      SEEDED.nextBytes(data);
    }
    return data;
  }

  @Test
  void createThenReadReturnsSameBytes() throws IOException {
    byte[] data = bytes(1000);
    store.create("packs/00/0001", data, Retention.NONE);
    assertThat(store.read("packs/00/0001")).isEqualTo(data);
  }

  @Test
  void createFromAFileStoresItsBytesAndRefusesAnExistingName(@TempDir Path dir) throws IOException {
    byte[] data = bytes(3 << 20);
    Path file = Files.write(dir.resolve("pack"), data);
    Retention retention = Retention.of(Mode.GOVERNANCE, retainedUntil());
    store.create("packs/00/0002", file, retention);
    assertThat(store.read("packs/00/0002")).isEqualTo(data);
    assertThat(store.retention("packs/00/0002")).isEqualTo(retention);
    assertThat(file).hasBinaryContent(data); // the caller's file is left as it was

    Path other = Files.write(dir.resolve("other"), new byte[] {7});
    assertThatThrownBy(() -> store.create("packs/00/0002", other, retention))
        .isInstanceOf(BlobExistsException.class);
    assertThat(store.read("packs/00/0002")).isEqualTo(data);
  }

  @Test
  void storedBytesCannotBeChangedThroughTheCallersArrays() throws IOException {
    byte[] data = bytes(100);
    byte[] original = data.clone();
    store.create("a", data, Retention.NONE);
    data[0] ^= 1;
    store.read("a")[1] ^= 1;
    assertThat(store.read("a")).isEqualTo(original);
  }

  @Test
  void createOfExistingNameIsRefusedAndKeepsOriginal() throws IOException {
    Retention retention = Retention.of(Mode.GOVERNANCE, retainedUntil());
    store.create("config", new byte[] {1, 2, 3}, retention);
    Retention longer = Retention.of(Mode.COMPLIANCE, retainedUntil().plus(Duration.ofDays(1)));
    assertThatThrownBy(() -> store.create("config", new byte[] {9}, longer))
        .isInstanceOf(BlobExistsException.class);
    assertThat(store.read("config")).containsExactly(1, 2, 3);
    assertThat(store.retention("config")).isEqualTo(retention);
  }

  @Test
  void concurrentCreatesOfOneNameHaveExactlyOneWinner() throws Exception {
    int writers = 8;
    ExecutorService pool =
        Executors.newFixedThreadPool(
            writers,
            r -> {
              Thread t = new Thread(r, "contract-writer");
              t.setDaemon(true);
              return t;
            });
    try {
      for (int round = 0; round < 10; round++) {
        String name = "race/blob-" + round;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger refused = new AtomicInteger();
        List<Future<Integer>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int writer = w;
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    try {
                      byte[] data = new byte[4096];
                      Arrays.fill(data, (byte) writer);
                      store.create(name, data, Retention.NONE);
                      return writer;
                    } catch (BlobExistsException e) {
                      refused.incrementAndGet();
                      return -1;
                    }
                  }));
        }
        start.countDown();
        List<Integer> winners = new ArrayList<>();
        for (Future<Integer> result : results) {
          int writer = result.get();
          if (writer >= 0) {
            winners.add(writer);
          }
        }
        if (store.capabilities().conditionalCreate()) {
          assertThat(winners).as("winners of %s", name).hasSize(1);
        } else {
          // A server that ignores conditional creates (Ceph RGW on versioned buckets) cannot
          // order two PUTs that overlap in time: a version made visible after another writer's
          // check may still carry the earlier timestamp. Such a store must say so in its
          // capabilities; it still refuses every create that starts after a create finished
          // (createOfExistingNameIsRefusedAndKeepsOriginal) and keeps one readable winner.
          assertThat(winners).as("winners of %s", name).isNotEmpty();
        }
        assertThat(refused).hasValue(writers - winners.size());
        List<byte[]> candidates = new ArrayList<>();
        for (int w : winners) {
          byte[] data = new byte[4096];
          Arrays.fill(data, (byte) w);
          candidates.add(data);
        }
        byte[] stored = store.read(name);
        assertThat(candidates)
            .as("the stored bytes are a winner's")
            .anyMatch(c -> Arrays.equals(c, stored));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void readOfMissingBlobIsNotFound() throws IOException {
    store.create("present/a", new byte[] {1}, Retention.NONE);
    assertThatThrownBy(() -> store.read("present/b")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.read("absent/b", 0, 1))
        .isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.stat("absent")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.retention("absent")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.extendRetention("absent", Mode.GOVERNANCE, retainedUntil()))
        .isInstanceOf(BlobNotFoundException.class);
    // A prefix of other names is not a blob.
    assertThatThrownBy(() -> store.read("present")).isInstanceOf(BlobNotFoundException.class);
  }

  @Test
  void rangedReadReturnsSlice() throws IOException {
    byte[] data = bytes(100);
    store.create("ranged", data, Retention.NONE);
    assertThat(store.read("ranged", 10, 20)).isEqualTo(Arrays.copyOfRange(data, 10, 30));
    assertThat(store.read("ranged", 99, 1)).containsExactly(data[99]);
    assertThat(store.read("ranged", 0, 100)).isEqualTo(data);
    assertThat(store.read("ranged", 100, 0)).isEmpty();
  }

  @Test
  void rangedReadIntoABufferGivesTheSliceAtItsStart() throws IOException {
    byte[] data = bytes(100);
    store.create("ranged", data, Retention.NONE);
    byte[] large = new byte[64];
    Arrays.fill(large, (byte) 7);
    byte[] got = store.read("ranged", 10, 20, large);
    assertThat(Arrays.copyOf(got, 20)).isEqualTo(Arrays.copyOfRange(data, 10, 30));
    if (readsIntoTheCallersBuffer()) {
      assertThat(got).isSameAs(large);
    }
    // A buffer too short is not written past its end: the slice comes in a new array.
    byte[] small = new byte[5];
    assertThat(store.read("ranged", 50, 50, small)).isEqualTo(Arrays.copyOfRange(data, 50, 100));
    assertThat(small).containsOnly(0);
    assertThatThrownBy(() -> store.read("ranged", 90, 11, large)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> store.read("absent/b", 0, 1, large))
        .isInstanceOf(BlobNotFoundException.class);
  }

  @Test
  void rangedReadPastEndFails() throws IOException {
    store.create("ranged", bytes(100), Retention.NONE);
    assertThatThrownBy(() -> store.read("ranged", 90, 11)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> store.read("ranged", 101, 0)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> store.read("ranged", -1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void streamedReadYieldsExactlyTheBytesThenEnds() throws IOException {
    byte[] data = bytes((3 << 20) + 17);
    store.create("packs/streamed", data, Retention.NONE);
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (InputStream in = store.openStream("packs/streamed")) {
      got.write(in.read());
      got.write(in.readNBytes(12_345));
      byte[] piece = new byte[1 << 20];
      int n = in.read(piece, 100, 5000);
      assertThat(n).isBetween(1, 5000);
      got.write(piece, 100, n);
      got.write(in.readAllBytes());
      assertThat(in.read()).isEqualTo(-1);
      assertThat(in.read(piece, 0, piece.length)).isEqualTo(-1);
    }
    assertThat(Arrays.equals(got.toByteArray(), data)).isTrue();
  }

  @Test
  void streamedReadOfEmptyBlobEndsAtOnce() throws IOException {
    store.create("empty", new byte[0], Retention.NONE);
    try (InputStream in = store.openStream("empty")) {
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void streamedReadOfMissingBlobIsNotFoundWhenOpened() throws IOException {
    store.create("present/a", new byte[] {1}, Retention.NONE);
    assertThatThrownBy(() -> store.openStream("present/b"))
        .isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.openStream("absent")).isInstanceOf(BlobNotFoundException.class);
    // A prefix of other names is not a blob.
    assertThatThrownBy(() -> store.openStream("present")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.openStream("../escape"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A reader that stops early (a corrupt header) closes the stream; nothing stays held. */
  @Test
  void streamsClosedBeforeTheirEndLeaveTheStoreUsable() throws IOException {
    byte[] data = bytes(1 << 20);
    store.create("packs/abandoned", data, Retention.NONE);
    // More than the S3 store's 64 connections: a stream closed early must give its own back.
    for (int i = 0; i < 80; i++) {
      try (InputStream in = store.openStream("packs/abandoned")) {
        assertThat(in.readNBytes(1000)).isEqualTo(Arrays.copyOf(data, 1000));
      }
    }
    try (InputStream in = store.openStream("packs/abandoned")) {
      assertThat(Arrays.equals(in.readAllBytes(), data)).isTrue();
    }
  }

  @Test
  void listReturnsSortedNamesUnderPrefixOnly() throws IOException {
    List<String> names =
        List.of(
            "snapshots/ac56",
            "snapshots/ab34",
            "snapshots/ab12",
            "snapshots/ab/nested/deep",
            "snapshots-old/ab12",
            "snapshotsx",
            "packs/00/0011",
            "packs/01/0133",
            "packs/00/0022");
    for (String name : names) {
      store.create(name, bytes(3), Retention.NONE);
    }
    assertThat(names(store.list("snapshots/ab")))
        .containsExactly("snapshots/ab/nested/deep", "snapshots/ab12", "snapshots/ab34");
    assertThat(names(store.list("snapshots/")))
        .containsExactly(
            "snapshots/ab/nested/deep", "snapshots/ab12", "snapshots/ab34", "snapshots/ac56");
    // A prefix is a string prefix, not a directory: "snapshots" also matches its siblings.
    assertThat(names(store.list("snapshots")))
        .containsExactly(
            "snapshots-old/ab12",
            "snapshots/ab/nested/deep",
            "snapshots/ab12",
            "snapshots/ab34",
            "snapshots/ac56",
            "snapshotsx");
    assertThat(names(store.list("packs/00/"))).containsExactly("packs/00/0011", "packs/00/0022");
    assertThat(names(store.list("packs/0")))
        .containsExactly("packs/00/0011", "packs/00/0022", "packs/01/0133");
    assertThat(store.list("indexes/")).isEmpty();
    assertThat(store.list("packs/02")).isEmpty();
  }

  @Test
  void listOfEmptyPrefixShowsEverything() throws IOException {
    store.create("b/2", bytes(2), Retention.NONE);
    store.create("a", bytes(1), Retention.NONE);
    store.create("b/1/x", bytes(3), Retention.of(Mode.GOVERNANCE, retainedUntil()));
    List<BlobInfo> all = store.list("");
    assertThat(names(all)).containsExactly("a", "b/1/x", "b/2");
    assertThat(all).extracting(BlobInfo::size).containsExactly(1L, 3L, 2L);
    assertThat(all).extracting(BlobInfo::created).doesNotContainNull();
  }

  @Test
  void emptyBlobRoundTrips() throws IOException {
    store.create("empty", new byte[0], Retention.NONE);
    assertThat(store.read("empty")).isEmpty();
    assertThat(store.read("empty", 0, 0)).isEmpty();
    assertThat(store.stat("empty").size()).isZero();
    assertThat(names(store.list(""))).containsExactly("empty");
  }

  @Test
  void largeBlobRoundTrips() throws IOException {
    byte[] data = bytes(20 << 20);
    store.create("packs/large", data, Retention.NONE);
    assertThat(store.stat("packs/large").size()).isEqualTo(data.length);
    assertThat(Arrays.equals(store.read("packs/large"), data)).isTrue();
    assertThat(store.read("packs/large", data.length - 5, 5))
        .isEqualTo(Arrays.copyOfRange(data, data.length - 5, data.length));
  }

  @Test
  void deleteOfRetainedBlobIsRefused() throws IOException {
    for (Mode mode : List.of(Mode.GOVERNANCE, Mode.COMPLIANCE)) {
      String name = "locked/" + mode;
      store.create(name, new byte[] {7}, Retention.of(mode, retainedUntil()));
      assertThatThrownBy(() -> store.delete(name)).isInstanceOf(BlobRetainedException.class);
      assertThat(store.read(name)).containsExactly(7);
      assertThat(names(store.list("locked/"))).contains(name);
    }
  }

  @Test
  void deleteAfterRetentionExpiresSucceeds() throws Exception {
    store.create("expiring", new byte[] {7}, Retention.of(Mode.COMPLIANCE, retainedUntil()));
    store.create("unretained", new byte[] {8}, Retention.NONE);
    assertThatThrownBy(() -> store.delete("expiring")).isInstanceOf(BlobRetainedException.class);
    store.delete("unretained");
    letRetentionExpire();
    store.delete("expiring");
    assertThatThrownBy(() -> store.read("expiring")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.read("unretained")).isInstanceOf(BlobNotFoundException.class);
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void deleteOfMissingBlobIsNotFound() throws IOException {
    assertThatThrownBy(() -> store.delete("never/written"))
        .isInstanceOf(BlobNotFoundException.class);
    store.create("once", new byte[] {1}, Retention.NONE);
    store.delete("once");
    assertThatThrownBy(() -> store.delete("once")).isInstanceOf(BlobNotFoundException.class);
  }

  @Test
  void retentionCanOnlyBeExtended() throws IOException {
    Instant until = retainedUntil();
    store.create("r", new byte[] {1}, Retention.of(Mode.COMPLIANCE, until));

    Retention kept = Retention.of(Mode.COMPLIANCE, until);
    assertThat(store.extendRetention("r", Mode.COMPLIANCE, until.minusSeconds(3600)))
        .isEqualTo(kept);
    assertThat(store.extendRetention("r", Mode.COMPLIANCE, until)).isEqualTo(kept);
    assertThat(store.retention("r")).isEqualTo(kept);

    Instant later = until.plus(Duration.ofDays(1));
    // The mode of a retained blob stays, whatever the extension asks for.
    Retention extended = Retention.of(Mode.COMPLIANCE, later);
    assertThat(store.extendRetention("r", Mode.GOVERNANCE, later)).isEqualTo(extended);
    assertThat(store.retention("r")).isEqualTo(extended);

    // A blob without retention takes the mode it is given.
    store.create("plain", new byte[] {1}, Retention.NONE);
    assertThat(store.extendRetention("plain", Mode.GOVERNANCE, until))
        .isEqualTo(Retention.of(Mode.GOVERNANCE, until));
    assertThatThrownBy(() -> store.delete("plain")).isInstanceOf(BlobRetainedException.class);
  }

  @Test
  void retentionIsReadBack() throws IOException {
    Instant until = retainedUntil();
    store.create("g", new byte[] {1}, Retention.of(Mode.GOVERNANCE, until));
    store.create("c", new byte[] {1}, Retention.of(Mode.COMPLIANCE, until));
    store.create("n", new byte[] {1}, Retention.NONE);
    assertThat(store.retention("g")).isEqualTo(Retention.of(Mode.GOVERNANCE, until));
    assertThat(store.retention("c")).isEqualTo(Retention.of(Mode.COMPLIANCE, until));
    assertThat(store.retention("n")).isEqualTo(Retention.NONE);
  }

  @Test
  void statReportsSize() throws IOException {
    store.create("sized/blob", bytes(1234), Retention.NONE);
    BlobInfo info = store.stat("sized/blob");
    assertThat(info.name()).isEqualTo("sized/blob");
    assertThat(info.size()).isEqualTo(1234);
    assertThat(info.created()).isNotNull();
    assertThat(store.list("sized/")).containsExactly(info);
  }

  @Test
  void invalidNamesAreRejected() throws IOException {
    store.create("valid", new byte[] {1}, Retention.NONE);
    for (String name :
        Arrays.asList(
            null,
            "",
            "/abs",
            "trailing/",
            "a//b",
            "../escape",
            "a/../b",
            "a/./b",
            ".",
            ".hidden",
            ".tmp/x",
            "space name",
            "back\\slash",
            "colon:x",
            "ü")) {
      assertThatThrownBy(() -> store.create(name, new byte[] {1}, Retention.NONE))
          .as("create %s", name)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.read(name))
          .as("read %s", name)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.delete(name))
          .as("delete %s", name)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> store.list("../")).isInstanceOf(IllegalArgumentException.class);
    assertThat(names(store.list(""))).containsExactly("valid");
  }

  @Test
  void pointInTimeIsClaimedOnlyWithItsContract() throws IOException {
    if (store.capabilities().pointInTime()) {
      assertThat(this)
          .as("a store claiming point-in-time reads must pass VersionedBlobStoreContractTest")
          .isInstanceOf(VersionedBlobStoreContractTest.class);
      return;
    }
    store.create("plain", new byte[] {1}, Retention.NONE);
    assertThat(store.versions("plain")).isEmpty();
    assertThatThrownBy(() -> store.asOf(Instant.now()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("versioned store");
  }

  static List<String> names(List<BlobInfo> infos) {
    return infos.stream().map(BlobInfo::name).toList();
  }
}
