package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import java.io.IOException;
import java.time.Instant;

/**
 * A store's point-in-time view that, unlike the view itself, closes the store it came from: the
 * command line opens one store per command and hands the repository only the view.
 */
final class PointInTimeStore extends ForwardingBlobStore {
  private final BlobStore store;

  private PointInTimeStore(BlobStore store, BlobStore view) {
    super(view);
    this.store = store;
  }

  /**
   * {@code store} as it was at {@code instant}.
   *
   * @throws CliException if the store keeps no versions
   */
  static BlobStore of(BlobStore store, Instant instant) {
    if (!store.capabilities().pointInTime()) {
      throw CliException.usage(
          "point-in-time reads need a versioned store (S3 with versioning); "
              + store.describe()
              + " keeps no versions");
    }
    return new PointInTimeStore(store, store.asOf(instant));
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      store.close();
    }
  }
}
