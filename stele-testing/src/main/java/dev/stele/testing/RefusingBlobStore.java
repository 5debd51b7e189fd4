package dev.stele.testing;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Refuses creates under a name prefix with an {@link IOException}, the way a full disk or a storage
 * policy does; every other call passes through. Unlike {@link FaultInjectingBlobStore}, which fails
 * calls at random, it aims at one kind of blob: the snapshot manifest, the index, the packs.
 *
 * <p>Concurrency: safe for many threads; the prefix is asked for anew at every create.
 */
public final class RefusingBlobStore extends ForwardingBlobStore {
  private final Supplier<String> refused;
  private final int allowed;
  private final boolean lands;
  private final AtomicInteger seen = new AtomicInteger();

  /**
   * Refuses every create under the prefix {@code refused} supplies at the time (null: none), before
   * it reaches the delegate.
   */
  public RefusingBlobStore(BlobStore delegate, Supplier<String> refused) {
    this(delegate, refused, 0, false);
  }

  /**
   * Lets the first {@code allowed} creates under {@code prefix} through and refuses the later ones:
   * after they reached the delegate if {@code lands} (the answer was lost), else before.
   */
  public RefusingBlobStore(BlobStore delegate, String prefix, int allowed, boolean lands) {
    this(delegate, () -> prefix, allowed, lands);
    Objects.requireNonNull(prefix, "prefix");
  }

  private RefusingBlobStore(
      BlobStore delegate, Supplier<String> refused, int allowed, boolean lands) {
    super(Objects.requireNonNull(delegate, "delegate"));
    if (allowed < 0) {
      throw new IllegalArgumentException("allowed must not be negative: " + allowed);
    }
    this.refused = Objects.requireNonNull(refused, "refused");
    this.allowed = allowed;
    this.lands = lands;
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    String prefix = refused.get();
    // A null name is the delegate's to reject, as the contract says.
    if (prefix != null
        && name != null
        && name.startsWith(prefix)
        && seen.incrementAndGet() > allowed) {
      if (lands) {
        super.create(name, data, retention);
      }
      throw new IOException("storage refused to create " + name + ": No space left on device");
    }
    super.create(name, data, retention);
  }
}
