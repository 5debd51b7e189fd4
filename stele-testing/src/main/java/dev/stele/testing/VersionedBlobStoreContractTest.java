package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The point-in-time part of the {@link BlobStore} contract ({@link BlobStore#asOf}, {@link
 * BlobStore#versions}, {@link BlobStore#readVersion}), on top of the whole basic contract. Every
 * store whose {@link dev.stele.blob.Capabilities#pointInTime()} is true extends this class (the
 * basic contract checks that it does), so a store that claims the capability must pass these.
 *
 * <p>The adversary hooks do what someone holding the store's credentials could do outside the
 * contract: {@link #overwrite} (a PUT to an existing key) and {@link #hide} (a DELETE without a
 * version id). For S3 they are raw requests with the same client.
 */
public abstract class VersionedBlobStoreContractTest extends BlobStoreContractTest {

  /** Adversary: replaces the current bytes of an existing {@code name}, keeping the old version. */
  protected abstract void overwrite(String name, byte[] data) throws IOException;

  /** Adversary: hides {@code name} behind a delete marker. */
  protected abstract void hide(String name) throws IOException;

  /**
   * Moves time on far enough that what is written next is strictly newer, by the store's clock and
   * at its timestamp resolution (S3 keeps whole seconds).
   */
  protected void pause() throws InterruptedException {
    if (clockControlsRetention()) {
      clock.advance(Duration.ofSeconds(2));
    } else {
      Thread.sleep(2100);
    }
  }

  /** An instant strictly between what was written before and what is written after it. */
  private Instant between() throws InterruptedException {
    pause();
    Instant t = now();
    pause();
    return t;
  }

  @BeforeEach
  void claimsPointInTime() {
    assertThat(store.capabilities().pointInTime()).isTrue();
    assertThat(store.capabilities().versioning()).isTrue();
  }

  @Test
  void asOfSeesTheStoreAsItWas() throws Exception {
    Instant before = between();
    store.create("a/1", new byte[] {1}, Retention.NONE);
    Instant afterFirst = between();
    store.create("a/2", new byte[] {2, 2}, Retention.NONE);
    store.create("b", new byte[] {3}, Retention.NONE);

    assertThat(names(store.asOf(before).list(""))).isEmpty();
    BlobStore first = store.asOf(afterFirst);
    assertThat(names(first.list(""))).containsExactly("a/1");
    assertThat(first.read("a/1")).containsExactly(1);
    assertThat(first.stat("a/1").size()).isEqualTo(1);
    assertThatThrownBy(() -> first.read("a/2")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> first.stat("b")).isInstanceOf(BlobNotFoundException.class);
    assertThat(names(store.asOf(now().plusSeconds(1)).list("a/"))).containsExactly("a/1", "a/2");
    // A view of a view is the view at the earlier instant.
    assertThat(names(first.asOf(now().plusSeconds(1)).list(""))).containsExactly("a/1");
  }

  @Test
  void aViewIsReadOnly() throws Exception {
    store.create("x", new byte[] {1}, Retention.NONE);
    BlobStore view = store.asOf(between());
    assertThatThrownBy(() -> view.create("y", new byte[] {1}, Retention.NONE))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.delete("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.extendRetention("x", Mode.GOVERNANCE, retainedUntil()))
        .isInstanceOf(UnsupportedOperationException.class);
    view.close();
    assertThat(store.read("x")).containsExactly(1); // closing the view left the store open
  }

  @Test
  void overwrittenBytesAreReadAsTheyWereBeforeTheOverwrite() throws Exception {
    byte[] original = bytes(1000);
    store.create("packs/p", original, Retention.of(Mode.COMPLIANCE, retainedUntil()));
    Instant beforeAttack = between();
    overwrite("packs/p", new byte[] {6, 6, 6});

    assertThat(store.read("packs/p")).containsExactly(6, 6, 6);
    BlobStore view = store.asOf(beforeAttack);
    assertThat(view.read("packs/p")).isEqualTo(original);
    try (InputStream in = view.openStream("packs/p")) {
      assertThat(in.readAllBytes()).isEqualTo(original);
    }
    try (InputStream in = store.openStream("packs/p")) {
      assertThat(in.readAllBytes()).containsExactly(6, 6, 6);
    }
    assertThat(view.read("packs/p", 10, 20)).isEqualTo(Arrays.copyOfRange(original, 10, 30));
    assertThatThrownBy(() -> view.read("packs/p", 990, 11)).isInstanceOf(EOFException.class);
    assertThat(view.stat("packs/p").size()).isEqualTo(1000);
    assertThat(view.list("packs/")).extracting(BlobInfo::size).containsExactly(1000L);
    assertThat(view.retention("packs/p").mode()).isEqualTo(Mode.COMPLIANCE);
  }

  @Test
  void hiddenNamesAreBackInAnEarlierView() throws Exception {
    store.create("snapshots/s", new byte[] {5}, Retention.of(Mode.COMPLIANCE, retainedUntil()));
    Instant beforeAttack = between();
    hide("snapshots/s");

    assertThat(store.list("snapshots/")).isEmpty();
    assertThatThrownBy(() -> store.read("snapshots/s")).isInstanceOf(BlobNotFoundException.class);
    assertThatThrownBy(() -> store.openStream("snapshots/s"))
        .isInstanceOf(BlobNotFoundException.class);
    assertThat(names(store.asOf(beforeAttack).list("snapshots/"))).containsExactly("snapshots/s");
    assertThat(store.asOf(beforeAttack).read("snapshots/s")).containsExactly(5);
  }

  @Test
  void versionsAreListedNewestFirstAndReadable() throws Exception {
    byte[] original = bytes(100);
    store.create("k", original, Retention.of(Mode.GOVERNANCE, retainedUntil()));
    pause();
    overwrite("k", new byte[] {1, 2});
    pause();
    hide("k");

    List<BlobVersion> versions = store.versions("k");
    assertThat(versions).hasSize(3);
    assertThat(versions).extracting(BlobVersion::deleteMarker).containsExactly(true, false, false);
    assertThat(versions).extracting(BlobVersion::size).containsExactly(0L, 2L, 100L);
    assertThat(versions.get(0).created()).isAfterOrEqualTo(versions.get(1).created());
    assertThat(versions.get(1).created()).isAfter(versions.get(2).created());
    assertThat(store.readVersion("k", versions.get(2).versionId())).isEqualTo(original);
    assertThat(store.readVersion("k", versions.get(2).versionId(), 5, 10))
        .isEqualTo(Arrays.copyOfRange(original, 5, 15));
    assertThat(store.readVersion("k", versions.get(1).versionId())).containsExactly(1, 2);
    assertThatThrownBy(() -> store.readVersion("k", versions.get(0).versionId()))
        .isInstanceOf(BlobNotFoundException.class);
    assertThat(store.versions("never/written")).isEmpty();
    // A view lists only the versions not newer than its instant.
    Instant t = versions.get(2).created();
    assertThat(store.asOf(t).versions("k"))
        .extracting(BlobVersion::versionId)
        .containsExactly(versions.get(2).versionId());
  }

  @Test
  void retainedVersionsSurviveTheAdversary() throws Exception {
    byte[] original = bytes(64);
    store.create("index/i", original, Retention.of(Mode.COMPLIANCE, retainedUntil()));
    Instant beforeAttack = between();
    overwrite("index/i", new byte[] {0});
    hide("index/i");
    assertThat(store.asOf(beforeAttack).read("index/i")).isEqualTo(original);
    BlobVersion kept = store.versions("index/i").get(2);
    assertThat(store.readVersion("index/i", kept.versionId())).isEqualTo(original);
  }

  @Test
  void createAfterADeleteMarkerIsAllowed() throws Exception {
    store.create("n", new byte[] {1}, Retention.NONE);
    pause();
    hide("n");
    pause();
    store.create("n", new byte[] {2}, Retention.NONE);
    assertThat(store.read("n")).containsExactly(2);
    assertThat(store.versions("n")).hasSize(3);
    store.delete("n"); // nothing retained
    assertThatThrownBy(() -> store.read("n")).isInstanceOf(BlobNotFoundException.class);
  }
}
