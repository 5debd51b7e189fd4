package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class FaultInjectingBlobStoreTest {
  private final InMemoryBlobStore memory = new InMemoryBlobStore(new MutableClock());

  @Test
  void aFaultBeforeLeavesNothingBehind() {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(memory, 1).failures(BlobOperation.CREATE, 1, 0);
    assertThatThrownBy(() -> faulty.create("a", new byte[] {1}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageStartingWith("injected fault");
    assertThat(memory.names()).isEmpty();
  }

  @Test
  void aFaultAfterLandsButLosesTheAnswer() {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(memory, 1).failures(BlobOperation.CREATE, 0, 1);
    assertThatThrownBy(() -> faulty.create("a", new byte[] {1}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class);
    assertThat(memory.names()).containsExactly("a");
  }

  @Test
  void aStreamedReadFailsWhenOpenedOrBreaksOffHalfway() throws IOException {
    memory.create("p", new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Retention.NONE);
    FaultInjectingBlobStore before =
        new FaultInjectingBlobStore(memory, 1).failures(BlobOperation.READ, 1, 0);
    assertThatThrownBy(() -> before.openStream("p")).isInstanceOf(InjectedFaultException.class);

    FaultInjectingBlobStore after =
        new FaultInjectingBlobStore(memory, 1).failures(BlobOperation.READ, 0, 1);
    try (InputStream in = after.openStream("p")) {
      assertThat(in.readNBytes(5)).containsExactly(0, 1, 2, 3, 4);
      assertThatThrownBy(in::read)
          .isInstanceOf(InjectedFaultException.class)
          .hasMessageContaining("p broke off at byte 5 of 10");
    }
    assertThat(before.injectedFaults() + after.injectedFaults()).isEqualTo(2);
    assertThatThrownBy(() -> new FaultInjectingBlobStore(memory, 1).openStream("missing"))
        .isInstanceOf(BlobNotFoundException.class);
  }

  @Test
  void faultsFollowTheSeedAndTheRate() throws IOException {
    assertThat(outcomes(42)).isEqualTo(outcomes(42));
    assertThat(outcomes(42)).isNotEqualTo(outcomes(43));
    long failures = outcomes(42).stream().filter(failed -> failed).count();
    assertThat(failures).isBetween(60L, 140L); // 200 reads at 50%
  }

  private List<Boolean> outcomes(long seed) throws IOException {
    InMemoryBlobStore store = new InMemoryBlobStore(new MutableClock());
    store.create("a", new byte[] {1}, Retention.NONE);
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(store, seed).failures(BlobOperation.READ, 0.25, 0.25);
    List<Boolean> failed = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      try {
        faulty.read("a");
        failed.add(false);
      } catch (InjectedFaultException e) {
        failed.add(true);
      }
    }
    return failed;
  }

  @Test
  void otherOperationsAreUnaffected() throws IOException {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(memory, 1).failures(BlobOperation.DELETE, 1, 0);
    faulty.create("a", new byte[] {1}, Retention.NONE);
    assertThat(faulty.read("a")).containsExactly(1);
    assertThat(faulty.injectedFaults()).isZero();
  }

  @Test
  void theStoresOwnFailuresPassThrough() {
    FaultInjectingBlobStore faulty = new FaultInjectingBlobStore(memory, 1);
    assertThatThrownBy(() -> faulty.read("missing")).isInstanceOf(BlobNotFoundException.class);
  }

  @Test
  void aCrashKillsEveryLaterCallAndTheLastMayLand() throws IOException {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(memory, 1).crashAfterMutations(2, true);
    faulty.create("one", new byte[] {1}, Retention.NONE);
    faulty.read("one"); // reads do not count towards the crash
    assertThat(faulty.crashed()).isFalse();
    assertThatThrownBy(() -> faulty.create("two", new byte[] {2}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class);
    assertThat(faulty.crashed()).isTrue();
    assertThatThrownBy(() -> faulty.read("one")).isInstanceOf(InjectedFaultException.class);
    assertThatThrownBy(() -> faulty.create("three", new byte[] {3}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class);
    assertThat(memory.names()).containsExactly("one", "two");
  }

  @Test
  void aCrashCanHappenBeforeTheLastCallLands() throws IOException {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(memory, 1).crashAfterMutations(1, false);
    assertThatThrownBy(() -> faulty.create("one", new byte[] {1}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class);
    assertThat(memory.names()).isEmpty();
  }

  @Test
  void aPointInTimeViewFailsWithTheStoreAndCrashesWithIt() throws IOException {
    MutableClock clock = new MutableClock();
    VersionedInMemoryBlobStore versioned = new VersionedInMemoryBlobStore(clock);
    versioned.create("a", new byte[] {1}, Retention.NONE);
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(versioned, 1).failures(BlobOperation.READ, 1, 0);
    BlobStore view = faulty.asOf(clock.instant());
    assertThat(view.describe()).startsWith("faulty ");
    assertThatThrownBy(() -> view.read("a")).isInstanceOf(InjectedFaultException.class);
    String version = versioned.versions("a").get(0).versionId();
    assertThatThrownBy(() -> view.readVersion("a", version))
        .isInstanceOf(InjectedFaultException.class);
    assertThat(faulty.injectedFaults()).isEqualTo(2);

    faulty.failures(BlobOperation.READ, 0, 0).crashAfterMutations(1, false);
    assertThatThrownBy(() -> faulty.create("b", new byte[] {2}, Retention.NONE))
        .isInstanceOf(InjectedFaultException.class);
    assertThatThrownBy(() -> view.versions("a")).isInstanceOf(InjectedFaultException.class);
    assertThat(faulty.crashed()).isTrue();
  }

  /** With no faults armed, the basic contract holds through the decorator. */
  @Nested
  class Contract extends BlobStoreContractTest {
    @Override
    protected BlobStore newStore(MutableClock clock) {
      return new FaultInjectingBlobStore(new InMemoryBlobStore(clock), 1);
    }
  }

  /** So does the versioned contract, views included. */
  @Nested
  class VersionedContract extends VersionedWrapperContractTest {
    @Override
    protected BlobStore wrap(BlobStore delegate, MutableClock clock) {
      return new FaultInjectingBlobStore(delegate, 1);
    }
  }
}
