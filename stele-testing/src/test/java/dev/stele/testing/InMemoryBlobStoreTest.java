package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class InMemoryBlobStoreTest extends BlobStoreContractTest {

  @Override
  protected BlobStore newStore(MutableClock clock) {
    return new InMemoryBlobStore(clock);
  }

  @Test
  void corruptFlipsOneByteInPlace() throws IOException {
    InMemoryBlobStore memory = (InMemoryBlobStore) store;
    memory.create("x", new byte[] {0, 1, 2}, Retention.NONE);
    memory.corrupt("x", 1);
    assertThat(memory.read("x")).containsExactly(0, (byte) ~1, 2);
    assertThatThrownBy(() -> memory.corrupt("x", 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> memory.corrupt("y", 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesListsEverythingSorted() throws IOException {
    InMemoryBlobStore memory = (InMemoryBlobStore) store;
    memory.create("b", new byte[0], Retention.NONE);
    memory.create("a/c", new byte[0], Retention.NONE);
    assertThat(memory.names()).containsExactly("a/c", "b");
  }

  @Test
  void creationTimeComesFromTheClock() throws IOException {
    store.create("t", new byte[0], Retention.NONE);
    assertThat(store.stat("t").created()).isEqualTo(clock.instant());
  }
}
