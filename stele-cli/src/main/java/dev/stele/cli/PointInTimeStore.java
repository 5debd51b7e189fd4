package dev.stele.cli;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * A store's point-in-time view that, unlike the view itself, closes the store it came from: the
 * command line opens one store per command and hands the repository only the view.
 */
final class PointInTimeStore implements BlobStore {
  private final BlobStore store;
  private final BlobStore view;

  private PointInTimeStore(BlobStore store, BlobStore view) {
    this.store = store;
    this.view = view;
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
  public void create(String name, byte[] data, Retention retention) throws IOException {
    view.create(name, data, retention);
  }

  @Override
  public byte[] read(String name) throws IOException {
    return view.read(name);
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return view.read(name, offset, length);
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return view.list(prefix);
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return view.stat(name);
  }

  @Override
  public void delete(String name) throws IOException {
    view.delete(name);
  }

  @Override
  public Retention retention(String name) throws IOException {
    return view.retention(name);
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    return view.extendRetention(name, mode, until);
  }

  @Override
  public BlobStore asOf(Instant instant) {
    return view.asOf(instant);
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return view.versions(name);
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    return view.readVersion(name, versionId);
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    return view.readVersion(name, versionId, offset, length);
  }

  @Override
  public Capabilities capabilities() {
    return view.capabilities();
  }

  @Override
  public String describe() {
    return view.describe();
  }

  @Override
  public void close() throws IOException {
    try {
      view.close();
    } finally {
      store.close();
    }
  }
}
