package dev.stele.operator;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/** Refuses every create of a name under the prefix {@code refused} supplies (null: none). */
final class RefusingBlobStore implements BlobStore {
  private final BlobStore delegate;
  private final Supplier<String> refused;

  RefusingBlobStore(BlobStore delegate, Supplier<String> refused) {
    this.delegate = delegate;
    this.refused = refused;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    String prefix = refused.get();
    if (prefix != null && name.startsWith(prefix)) {
      throw new IOException("storage refused to create " + name + " (test)");
    }
    delegate.create(name, data, retention);
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
