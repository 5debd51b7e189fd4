package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class ChunkCodecTest {
  private final MasterKey key = MasterKey.generate(new SecureRandom());
  private final ChunkCodec codec = new ChunkCodec(key, 2);

  @Test
  void aChunkSealedUnderItsOwnIdChecks() throws Exception {
    byte[] data = "the content of a chunk".getBytes(StandardCharsets.UTF_8);
    Id id = Id.of(key.chunkId(data, 0, data.length));
    PackEntry entry = entryFor(id, data);

    codec.check("packs/p", entry, codec.seal(id, ChunkType.DATA, data, 0, data.length), 0);
  }

  @Test
  void checkNamesAChunkWhoseContentIsNotWhatItsIdSays() throws Exception {
    byte[] meant = "what the id was computed from".getBytes(StandardCharsets.UTF_8);
    byte[] sealed = "what was sealed instead".getBytes(StandardCharsets.UTF_8);
    Id id = Id.of(key.chunkId(meant, 0, meant.length));
    byte[] bytes = codec.seal(id, ChunkType.DATA, sealed, 0, sealed.length);
    PackEntry entry = entryFor(id, sealed, bytes.length);

    // Authentication holds (it was sealed under this id); only the content check sees it.
    assertThat(codec.open("packs/p", entry, bytes, 0)).isEqualTo(sealed);
    assertThatThrownBy(() -> codec.check("packs/p", entry, bytes, 0))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining("packs/p")
        .hasMessageContaining(id.shortHex())
        .hasMessageContaining("content does not match its id");
  }

  private PackEntry entryFor(Id id, byte[] data) {
    return entryFor(id, data, codec.seal(id, ChunkType.DATA, data, 0, data.length).length);
  }

  private static PackEntry entryFor(Id id, byte[] data, int sealedLength) {
    return new PackEntry(id, ChunkType.DATA, 0, sealedLength, data.length);
  }

  @Test
  void reusedBuffersGrowToPowersOfTwoThatHoldTheChunk() {
    assertThat(ChunkCodec.grown(-5)).isEqualTo(1);
    assertThat(ChunkCodec.grown(1)).isEqualTo(1);
    assertThat(ChunkCodec.grown(5)).isEqualTo(8);
    assertThat(ChunkCodec.grown(4 << 20)).isEqualTo(4 << 20);
    assertThat(ChunkCodec.grown((4 << 20) + 1)).isEqualTo(8 << 20);
    assertThat(ChunkCodec.grown(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
  }
}
