package dev.stele.testing;

import dev.stele.blob.BlobStore;
import java.io.IOException;

/**
 * The versioned contract through a decorator: {@link #wrap} puts the decorator under test around a
 * {@link VersionedInMemoryBlobStore}, and the adversary works on that store beneath it. A decorator
 * that forwards {@link dev.stele.blob.Capabilities#pointInTime()} must forward point-in-time reads
 * too, and the basic contract checks that a store claiming them passes this one.
 */
public abstract class VersionedWrapperContractTest extends VersionedBlobStoreContractTest {
  private VersionedInMemoryBlobStore memory;

  /** The decorator under test around {@code delegate}, forwarding everything it does not change. */
  protected abstract BlobStore wrap(BlobStore delegate, MutableClock clock) throws IOException;

  @Override
  protected final BlobStore newStore(MutableClock clock) throws IOException {
    memory = new VersionedInMemoryBlobStore(clock);
    return wrap(memory, clock);
  }

  @Override
  protected final void overwrite(String name, byte[] data) {
    memory.overwrite(name, data);
  }

  @Override
  protected final void hide(String name) {
    memory.deleteMarker(name);
  }
}
