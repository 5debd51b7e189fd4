package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VersionedInMemoryBlobStoreTest extends VersionedBlobStoreContractTest {

  @Override
  protected BlobStore newStore(MutableClock clock) {
    return new VersionedInMemoryBlobStore(clock);
  }

  @Override
  protected void overwrite(String name, byte[] data) {
    ((VersionedInMemoryBlobStore) store).overwrite(name, data);
  }

  @Override
  protected void hide(String name) {
    ((VersionedInMemoryBlobStore) store).deleteMarker(name);
  }

  @Test
  void theAdversaryCannotDeleteARetainedVersion() throws IOException {
    VersionedInMemoryBlobStore memory = (VersionedInMemoryBlobStore) store;
    memory.create(
        "packs/p",
        new byte[] {1},
        Retention.of(Retention.Mode.COMPLIANCE, clock.instant().plus(Duration.ofDays(1))));
    String kept = memory.versions("packs/p").get(0).versionId();
    String garbage = memory.overwrite("packs/p", new byte[] {9});
    assertThatThrownBy(() -> memory.deleteVersion("packs/p", kept))
        .isInstanceOf(BlobRetainedException.class);
    memory.deleteVersion("packs/p", garbage); // unretained: gone for good
    assertThat(memory.read("packs/p")).containsExactly(1);
    // The contract's delete refuses while any version is retained.
    assertThatThrownBy(() -> memory.delete("packs/p")).isInstanceOf(BlobRetainedException.class);
  }
}
