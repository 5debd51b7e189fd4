package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RefusingBlobStoreTest {
  private final InMemoryBlobStore memory = new InMemoryBlobStore(new MutableClock());

  @Test
  void refusesCreatesUnderThePrefixOfTheMoment() throws IOException {
    AtomicReference<String> prefix = new AtomicReference<>("snapshots/");
    RefusingBlobStore refusing = new RefusingBlobStore(memory, prefix::get);
    assertThatThrownBy(() -> refusing.create("snapshots/a", new byte[] {1}, Retention.NONE))
        .isInstanceOf(IOException.class)
        .hasMessage("storage refused to create snapshots/a: No space left on device");
    refusing.create("packs/a", new byte[] {1}, Retention.NONE);
    prefix.set(null);
    refusing.create("snapshots/a", new byte[] {1}, Retention.NONE);
    assertThat(memory.names()).containsExactly("packs/a", "snapshots/a");
  }

  @Test
  void letsTheAllowedThroughThenRefusesBeforeOrAfterTheyLand() throws IOException {
    RefusingBlobStore before = new RefusingBlobStore(memory, "packs/", 1, false);
    before.create("packs/1", new byte[] {1}, Retention.NONE);
    assertThatThrownBy(() -> before.create("packs/2", new byte[] {2}, Retention.NONE))
        .isInstanceOf(IOException.class);
    RefusingBlobStore after = new RefusingBlobStore(memory, "index/", 0, true);
    assertThatThrownBy(() -> after.create("index/1", new byte[] {3}, Retention.NONE))
        .isInstanceOf(IOException.class);
    assertThat(memory.names()).containsExactly("index/1", "packs/1");
  }

  /** Refusing nothing, it keeps the basic contract. */
  @Nested
  class Contract extends BlobStoreContractTest {
    @Override
    protected BlobStore newStore(MutableClock clock) {
      return new RefusingBlobStore(new InMemoryBlobStore(clock), () -> null);
    }
  }

  /** And the versioned one, refusing only what no test writes. */
  @Nested
  class VersionedContract extends VersionedWrapperContractTest {
    @Override
    protected BlobStore wrap(BlobStore delegate, MutableClock clock) {
      return new RefusingBlobStore(delegate, "refused/", 0, false);
    }
  }
}
