package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.testing.VersionedInMemoryBlobStore;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test backend for {@code vmem://NAME}: versioned in-memory stores that live as long as the test
 * JVM, so that successive in-process commands see the same store and a test can play the adversary
 * on it.
 */
public final class MemoryStores implements BlobStoreProvider {
  private static final Map<String, VersionedInMemoryBlobStore> STORES = new ConcurrentHashMap<>();

  /** The store at {@code vmem://name}, created empty on first use. */
  static VersionedInMemoryBlobStore get(String name) {
    return STORES.computeIfAbsent(name, n -> new VersionedInMemoryBlobStore(Clock.systemUTC()));
  }

  @Override
  public String scheme() {
    return "vmem";
  }

  @Override
  public BlobStore open(URI location, boolean creating) {
    return get(location.getHost());
  }
}
