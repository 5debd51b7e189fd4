package dev.stele.operator;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.util.function.Supplier;

/** Refuses every create of a name under the prefix {@code refused} supplies (null: none). */
final class RefusingBlobStore extends ForwardingBlobStore {
  private final Supplier<String> refused;

  RefusingBlobStore(BlobStore delegate, Supplier<String> refused) {
    super(delegate);
    this.refused = refused;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    String prefix = refused.get();
    if (prefix != null && name.startsWith(prefix)) {
      throw new IOException("storage refused to create " + name + " (test)");
    }
    super.create(name, data, retention);
  }
}
