package dev.stele.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Pins the chunk boundaries. The chunker is part of the repository format: if this test fails,
 * existing repositories would stop deduplicating against new backups. Do not update the expected
 * values without a format version change.
 */
class FastCdcVectorTest {
  @Test
  void defaultParamsWithKey0To31CutSeed42RandomBytesAtFixedLengths() {
    // key = bytes 0x00..0x1f; input = new SplittableRandom(42).nextBytes(8 MiB)
    FastCdc cdc = new FastCdc(ChunkerParams.DEFAULT, GearTable.fromKey(TestData.key(0)));
    byte[] data = TestData.random(42, 8 << 20);

    assertThat(TestData.cutAll(cdc, data))
        .containsExactly(1888652, 1161528, 1431474, 1145679, 1050020, 1143395, 567860);
  }

  @Test
  void smallParamsWithKey0To31CutSeed42RandomBytesAtFixedLengths() {
    // min 2 KiB, avg 8 KiB, max 32 KiB; first 16 chunks of 1 MiB
    FastCdc cdc = new FastCdc(TestData.SMALL, GearTable.fromKey(TestData.key(0)));
    byte[] data = TestData.random(42, 1 << 20);

    assertThat(TestData.cutAll(cdc, data).subList(0, 16))
        .containsExactly(
            8534, 8699, 10212, 15716, 9502, 10174, 4064, 2892, 8226, 14699, 3044, 8379, 8812, 9219,
            11186, 9313);
  }
}
