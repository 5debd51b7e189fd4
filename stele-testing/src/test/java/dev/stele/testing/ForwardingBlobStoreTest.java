package dev.stele.testing;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import org.junit.jupiter.api.Nested;

/** A decorator that changes nothing keeps the whole contract: the base of the others does. */
class ForwardingBlobStoreTest {
  static BlobStore forwarding(BlobStore delegate) {
    return new ForwardingBlobStore(delegate) {};
  }

  @Nested
  class Contract extends BlobStoreContractTest {
    @Override
    protected BlobStore newStore(MutableClock clock) {
      return forwarding(new InMemoryBlobStore(clock));
    }
  }

  @Nested
  class VersionedContract extends VersionedWrapperContractTest {
    @Override
    protected BlobStore wrap(BlobStore delegate, MutableClock clock) {
      return forwarding(delegate);
    }
  }
}
