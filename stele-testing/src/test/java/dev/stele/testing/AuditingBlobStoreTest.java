package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AuditingBlobStoreTest {
  private final MutableClock clock = new MutableClock();
  private final AuditingBlobStore audited =
      new AuditingBlobStore(new InMemoryBlobStore(clock), clock);

  private Retention aWeek() {
    return Retention.of(Mode.COMPLIANCE, clock.instant().plus(Duration.ofDays(7)));
  }

  @Test
  void recordsEveryCallWithPhaseAndOutcome() throws IOException {
    audited.setPhase("backup");
    audited.create("a", new byte[] {1}, Retention.NONE);
    audited.read("a");
    assertThatThrownBy(() -> audited.read("missing")).isInstanceOf(IOException.class);

    assertThat(audited.calls())
        .extracting(c -> c.operation() + " " + c.name() + " " + c.phase() + " " + c.outcome())
        .containsExactly(
            "CREATE a backup ok", "READ a backup ok", "READ missing backup BlobNotFoundException");
    assertThat(audited.calls().get(0).thread()).isEqualTo(Thread.currentThread().getName());
  }

  @Test
  void aCleanLifeCyclePassesEveryAssertion() throws IOException {
    audited.setPhase("backup");
    audited.create("packs/1", new byte[] {1}, aWeek());
    audited.create("packs/2", new byte[] {2}, Retention.NONE);
    audited.setPhase("maintenance");
    audited.delete("packs/2");
    clock.advance(Duration.ofDays(8));
    audited.delete("packs/1");

    audited.assertNoNameWrittenTwice();
    audited.assertDeletesOnlyIn("maintenance");
    audited.assertNoDeleteOfRetained();
  }

  @Test
  void catchesASecondWriteOfAName() throws IOException {
    audited.create("config", new byte[] {1}, Retention.NONE);
    // A blind retry: the store refuses it, but the attempt itself breaks rule 1.
    assertThatThrownBy(() -> audited.create("config", new byte[] {1}, Retention.NONE))
        .isInstanceOf(BlobExistsException.class);

    assertThatThrownBy(audited::assertNoNameWrittenTwice)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("names written more than once (2)")
        .hasMessageContaining("CREATE config")
        .hasMessageContaining("BlobExistsException");
  }

  @Test
  void catchesADeleteOfARetainedBlobEvenWhenTheStoreRefusesIt() throws IOException {
    audited.create("packs/1", new byte[] {1}, Retention.NONE);
    audited.extendRetention("packs/1", Mode.GOVERNANCE, clock.instant().plusSeconds(60));
    audited.setPhase("maintenance");
    assertThatThrownBy(() -> audited.delete("packs/1")).isInstanceOf(BlobRetainedException.class);

    assertThatThrownBy(audited::assertNoDeleteOfRetained)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("deletes of blobs still retained (1)")
        .hasMessageContaining("[maintenance] DELETE packs/1");
  }

  @Test
  void retentionOfACreateWhoseAnswerWasLostStillCounts() throws IOException {
    FaultInjectingBlobStore faulty =
        new FaultInjectingBlobStore(new InMemoryBlobStore(clock), 1)
            .failures(BlobOperation.CREATE, 0, 1);
    AuditingBlobStore audit = new AuditingBlobStore(faulty, clock);
    assertThatThrownBy(() -> audit.create("p", new byte[] {1}, aWeek()))
        .isInstanceOf(InjectedFaultException.class);
    assertThatThrownBy(() -> audit.delete("p")).isInstanceOf(BlobRetainedException.class);
    assertThatThrownBy(audit::assertNoDeleteOfRetained).isInstanceOf(AssertionError.class);
  }

  @Test
  void catchesADeleteOutsideItsPhase() throws IOException {
    audited.setPhase("backup");
    audited.create("tmp", new byte[] {1}, Retention.NONE);
    audited.delete("tmp");

    assertThatThrownBy(() -> audited.assertDeletesOnlyIn("maintenance"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[backup] DELETE tmp");
  }

  @Test
  void aPointInTimeViewIsAuditedIntoTheSameRecord() throws IOException {
    AuditingBlobStore versioned =
        new AuditingBlobStore(new VersionedInMemoryBlobStore(clock), clock);
    versioned.setPhase("backup");
    versioned.create("a", new byte[] {1}, Retention.NONE);
    String version = versioned.versions("a").get(0).versionId();
    clock.advance(Duration.ofSeconds(1));
    versioned.setPhase("restore");
    BlobStore view = versioned.asOf(clock.instant());
    view.read("a");
    view.readVersion("a", version, 0, 1);

    assertThat(view.describe()).startsWith("audited ");
    assertThat(versioned.calls())
        .extracting(c -> c.operation() + " " + c.name() + " " + c.phase())
        .containsExactly(
            "CREATE a backup", "VERSIONS a backup", "READ a restore", "READ a restore");
  }

  /** The basic contract holds through the auditor. */
  @Nested
  class Contract extends BlobStoreContractTest {
    @Override
    protected BlobStore newStore(MutableClock clock) {
      return new AuditingBlobStore(new InMemoryBlobStore(clock), clock);
    }
  }

  /** So does the versioned contract, views included. */
  @Nested
  class VersionedContract extends VersionedWrapperContractTest {
    @Override
    protected BlobStore wrap(BlobStore delegate, MutableClock clock) {
      return new AuditingBlobStore(delegate, clock);
    }
  }
}
