package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TreePackCacheTest {
  private final List<String> reads = new ArrayList<>();

  /** A store of 100-byte packs whose byte i is i, recording each read as "pack" or "pack@off". */
  private final BlobStore store =
      (BlobStore)
          Proxy.newProxyInstance(
              BlobStore.class.getClassLoader(),
              new Class<?>[] {BlobStore.class},
              (proxy, method, args) -> {
                if (!method.getName().equals("read")) {
                  throw new UnsupportedOperationException(method.getName());
                }
                String name = (String) args[0];
                if (args.length == 1) {
                  reads.add(name);
                  return bytes(0, 100);
                }
                reads.add(name + "@" + args[1]);
                return bytes((int) (long) (Long) args[1], (Integer) args[2]);
              });

  @Test
  void treesInPacksBeyondTheBudgetAreReadOnTheirOwnNotByWholePacksAgain() throws Exception {
    TreePackCache cache = new TreePackCache(250); // two of the 100-byte packs fit
    PackEntry entry = new PackEntry(Id.of(new byte[Id.BYTES]), ChunkType.TREE, 40, 10, 10);

    // A depth-first walk moves between packs all the time.
    for (int round = 0; round < 5; round++) {
      for (String pack : List.of("packs/a", "packs/b", "packs/c")) {
        TreePackCache.Sealed sealed = cache.read(store, pack, entry);
        assertThat(sealed.buffer()[sealed.offset()]).isEqualTo((byte) 40);
      }
    }

    // Each pack is read whole at most once; the one that did not fit is read by range from then
    // on. (An LRU that dropped a pack to make room read a whole pack for every tree here.)
    assertThat(reads.stream().filter(r -> !r.contains("@")))
        .containsExactly("packs/a", "packs/b", "packs/c");
    assertThat(reads.stream().filter(r -> r.contains("@")))
        .hasSize(4)
        .allMatch("packs/c@40"::equals);
  }

  private static byte[] bytes(int from, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (from + i);
    }
    return b;
  }
}
