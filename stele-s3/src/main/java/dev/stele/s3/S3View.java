package dev.stele.s3;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;

/**
 * A read-only view of an {@link S3BlobStore} as it was at an instant: each key reads as its newest
 * version whose Last-Modified is not after the instant, and a key whose newest such version is a
 * delete marker is absent. Every lookup lists the key's versions (one request) and then reads that
 * version by id; a listing lists every version under the prefix.
 *
 * <p>Concurrency: immutable; as safe as the store it views. Closing it releases nothing.
 */
final class S3View implements BlobStore {
  private final S3BlobStore store;
  private final Instant instant;

  S3View(S3BlobStore store, Instant instant) {
    this.store = store;
    this.instant = instant;
  }

  /** The version of {@code name} in view. */
  private BlobVersion current(String name) throws IOException {
    List<BlobVersion> versions = versions(name);
    if (versions.isEmpty() || versions.get(0).deleteMarker()) {
      throw new BlobNotFoundException(name);
    }
    return versions.get(0);
  }

  @Override
  public byte[] read(String name) throws IOException {
    return store.readVersion(name, current(name).versionId());
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    BlobVersion version = current(name);
    if (length == 0) {
      if (offset > version.size()) {
        throw new java.io.EOFException(name + ": offset " + offset + " is past the end");
      }
      return new byte[0];
    }
    return store.readVersion(name, version.versionId(), offset, length);
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    return store.openVersionStream(name, current(name).versionId());
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return store.listAsOf(prefix, instant);
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    BlobVersion version = current(name);
    return new BlobInfo(name, version.size(), S3BlobStore.seconds(version.created()));
  }

  @Override
  public Retention retention(String name) throws IOException {
    return store.retentionOfVersion(name, current(name).versionId());
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return store.versions(name).stream().filter(v -> !v.created().isAfter(instant)).toList();
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    check(name, versionId);
    return store.readVersion(name, versionId);
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    check(name, versionId);
    return store.readVersion(name, versionId, offset, length);
  }

  private void check(String name, String versionId) throws IOException {
    if (versions(name).stream().noneMatch(v -> v.versionId().equals(versionId))) {
      throw new BlobNotFoundException(name + " version " + versionId + " as of " + instant);
    }
  }

  @Override
  public BlobStore asOf(Instant other) {
    return other.isBefore(instant) ? new S3View(store, other) : this;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) {
    throw readOnly();
  }

  @Override
  public void delete(String name) {
    throw readOnly();
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until) {
    throw readOnly();
  }

  private UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException(describe() + " is a read-only view");
  }

  @Override
  public Capabilities capabilities() {
    return store.capabilities();
  }

  @Override
  public String describe() {
    return store.describe() + " as of " + instant;
  }

  @Override
  public void close() {}
}
