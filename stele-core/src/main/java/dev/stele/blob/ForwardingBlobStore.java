package dev.stele.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A store that passes every call to another: the base of decorators that change one or two
 * operations. A subclass overrides what it changes and nothing else, so a method added to the SPI
 * is forwarded by default instead of falling back to the interface's default. One exception: the
 * range read into a caller's buffer keeps the interface's default, which calls {@link #read(String,
 * long, int)}, so that a decorator of reads sees those too.
 */
public abstract class ForwardingBlobStore implements BlobStore {
  private final BlobStore delegate;

  protected ForwardingBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  protected final BlobStore delegate() {
    return delegate;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    delegate.create(name, data, retention);
  }

  @Override
  public @Nullable Path spoolDirectory() {
    return delegate.spoolDirectory();
  }

  @Override
  public IOException spoolRefusal(String name, Path file, IOException e) {
    return delegate.spoolRefusal(name, file, e);
  }

  @Override
  public byte[] read(String name) throws IOException {
    return delegate.read(name);
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return delegate.read(name, offset, length);
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    return delegate.openStream(name);
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    return delegate.stat(name);
  }

  @Override
  public void delete(String name) throws IOException {
    delegate.delete(name);
  }

  @Override
  public Retention retention(String name) throws IOException {
    return delegate.retention(name);
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    return delegate.extendRetention(name, mode, until);
  }

  @Override
  public BlobStore asOf(Instant instant) {
    return delegate.asOf(instant);
  }

  @Override
  public List<BlobVersion> versions(String name) throws IOException {
    return delegate.versions(name);
  }

  @Override
  public byte[] readVersion(String name, String versionId) throws IOException {
    return delegate.readVersion(name, versionId);
  }

  @Override
  public byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    return delegate.readVersion(name, versionId, offset, length);
  }

  @Override
  public Capabilities capabilities() {
    return delegate.capabilities();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
