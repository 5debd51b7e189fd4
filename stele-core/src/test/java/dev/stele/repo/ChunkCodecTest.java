package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
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

  /** Check decrypts in the caller's buffer: only the chunk's own bytes there may change. */
  @Test
  void checkOpensAChunkAtAnOffsetAndTouchesNothingAroundIt() throws Exception {
    byte[] compressible = new byte[300_000];
    byte[] incompressible = new byte[300_000];
    new Random(5).nextBytes(incompressible);
    for (byte[] data : List.of(compressible, incompressible)) {
      Id id = Id.of(key.chunkId(data, 0, data.length));
      byte[] sealed = codec.seal(id, ChunkType.DATA, data, 0, data.length);
      byte[] buf = new byte[11 + sealed.length + 13];
      Arrays.fill(buf, (byte) 9);
      System.arraycopy(sealed, 0, buf, 11, sealed.length);

      codec.check(
          "packs/p", new PackEntry(id, ChunkType.DATA, 11, sealed.length, data.length), buf, 11);

      assertThat(Arrays.copyOfRange(buf, 0, 11)).containsOnly(9);
      assertThat(Arrays.copyOfRange(buf, 11 + sealed.length, buf.length)).containsOnly(9);
    }
  }

  @Test
  void checkNamesAChunkThatFailsAuthentication() {
    byte[] data = "some content".getBytes(StandardCharsets.UTF_8);
    Id id = Id.of(key.chunkId(data, 0, data.length));
    byte[] sealed = codec.seal(id, ChunkType.DATA, data, 0, data.length);
    sealed[sealed.length / 2] ^= 1;

    assertThatThrownBy(() -> codec.check("packs/p", entryFor(id, data), sealed, 0))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(id.shortHex())
        .hasMessageContaining("chunk fails authentication");
  }

  private PackEntry entryFor(Id id, byte[] data) {
    return entryFor(id, data, codec.seal(id, ChunkType.DATA, data, 0, data.length).length);
  }

  private static PackEntry entryFor(Id id, byte[] data, int sealedLength) {
    return new PackEntry(id, ChunkType.DATA, 0, sealedLength, data.length);
  }

  @Test
  void reusedBuffersGrowToPowersOfTwoThenInSteps() {
    assertThat(ChunkCodec.grown(-5)).isEqualTo(1);
    assertThat(ChunkCodec.grown(1)).isEqualTo(1);
    assertThat(ChunkCodec.grown(5)).isEqualTo(8);
    assertThat(ChunkCodec.grown(4 << 20)).isEqualTo(4 << 20);
    assertThat(ChunkCodec.grown((4 << 20) + 1)).isEqualTo((4 << 20) + (256 << 10));
    assertThat(ChunkCodec.grown((256 << 10) + 1)).isEqualTo(512 << 10);
    assertThat(ChunkCodec.grown(200 << 10)).isEqualTo(256 << 10);
    assertThat(ChunkCodec.grown(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
  }
}
