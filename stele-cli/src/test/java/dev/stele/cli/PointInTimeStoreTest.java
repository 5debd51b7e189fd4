package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.VersionedInMemoryBlobStore;
import dev.stele.testing.VersionedWrapperContractTest;
import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PointInTimeStoreTest {
  private final MutableClock clock = new MutableClock();

  @Test
  void readsAsTheViewAndClosesTheStoreItCameFrom() throws IOException {
    AtomicBoolean closed = new AtomicBoolean();
    BlobStore store =
        new ForwardingBlobStore(new VersionedInMemoryBlobStore(clock)) {
          @Override
          public void close() {
            closed.set(true);
          }
        };
    store.create("a", new byte[] {1}, Retention.NONE);
    BlobStore view = PointInTimeStore.of(store, clock.instant());
    assertThat(view.read("a")).containsExactly(1);
    assertThatThrownBy(() -> view.create("b", new byte[] {2}, Retention.NONE))
        .isInstanceOf(UnsupportedOperationException.class);
    view.close();
    assertThat(closed).isTrue();
  }

  @Test
  void aStoreWithoutVersionsIsAUsageError() {
    assertThatThrownBy(() -> PointInTimeStore.of(new InMemoryBlobStore(clock), clock.instant()))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("point-in-time reads need a versioned store");
  }

  /**
   * The versioned contract, with every view the command line's: a view is read-only; it is not a
   * store of its own, so the basic contract does not apply to it.
   */
  @Nested
  class Contract extends VersionedWrapperContractTest {
    @Override
    protected BlobStore wrap(BlobStore delegate, MutableClock clock) {
      return new ForwardingBlobStore(delegate) {
        @Override
        public BlobStore asOf(Instant instant) {
          return PointInTimeStore.of(delegate(), instant);
        }
      };
    }
  }
}
