package dev.stele.chunk;

import static dev.stele.chunk.TestData.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FastCdcTest {
  private final FastCdc small = TestData.chunker(SMALL, 0);

  @Test
  void chunksCoverTheInputExactlyAndRespectTheBounds() {
    byte[] data = TestData.random(1, 3 << 20);
    List<Integer> lengths = TestData.cutAll(small, data);

    assertThat(lengths.stream().mapToLong(Integer::longValue).sum()).isEqualTo(data.length);
    assertThat(lengths.subList(0, lengths.size() - 1))
        .allSatisfy(
            n -> assertThat(n).isGreaterThan(SMALL.minSize()).isLessThanOrEqualTo(SMALL.maxSize()));
    assertThat(lengths.get(lengths.size() - 1)).isBetween(1, SMALL.maxSize());
  }

  @Test
  void sameInputAndKeyGiveSameBoundaries() {
    byte[] data = TestData.random(2, 1 << 20);
    FastCdc again = TestData.chunker(SMALL, 0);
    assertThat(TestData.cutAll(again, data)).isEqualTo(TestData.cutAll(small, data));
  }

  @Test
  void differentKeyGivesDifferentBoundaries() {
    byte[] data = TestData.random(3, 1 << 20);
    FastCdc other = TestData.chunker(SMALL, 1);
    assertThat(TestData.cutAll(other, data)).isNotEqualTo(TestData.cutAll(small, data));
  }

  @Test
  void insertionInTheMiddleChangesOnlyTheChunksAroundIt() {
    byte[] data = TestData.random(4, 4 << 20);
    int at = data.length / 2 + 12345;
    byte[] edited = new byte[data.length + 5];
    System.arraycopy(data, 0, edited, 0, at);
    System.arraycopy(new byte[] {1, 2, 3, 4, 5}, 0, edited, at, 5);
    System.arraycopy(data, at, edited, at + 5, data.length - at);

    Set<ByteBuffer> before = chunkSet(data);
    Set<ByteBuffer> after = chunkSet(edited);
    Set<ByteBuffer> shared = new HashSet<>(before);
    shared.retainAll(after);

    assertThat(before).hasSizeGreaterThan(200);
    assertThat((double) shared.size() / before.size()).isGreaterThanOrEqualTo(0.9);
    assertThat(before.size() - shared.size()).as("chunks lost").isLessThanOrEqualTo(3);
  }

  @Test
  void allZeroInputGivesMaxSizeChunks() {
    byte[] zeros = new byte[3 * SMALL.maxSize() + 100];
    assertThat(TestData.cutAll(small, zeros))
        .containsExactly(SMALL.maxSize(), SMALL.maxSize(), SMALL.maxSize(), 100);
  }

  @Test
  void averageChunkSizeOver64MebibytesIsNearTheTarget() {
    FastCdc cdc = TestData.chunker(ChunkerParams.DEFAULT, 0);
    byte[] data = TestData.random(5, 64 << 20);
    double mean = (double) data.length / TestData.cutAll(cdc, data).size();
    int avg = ChunkerParams.DEFAULT.avgSize();
    assertThat(mean).isBetween(0.5 * avg, 2.0 * avg);
  }

  @Test
  void averageChunkSizeWithSmallBoundsIsNearTheTarget() {
    byte[] data = TestData.random(6, 8 << 20);
    double mean = (double) data.length / TestData.cutAll(small, data).size();
    assertThat(mean).isBetween(0.5 * SMALL.avgSize(), 2.0 * SMALL.avgSize());
  }

  @Test
  void masksSelectTheHighBitsAroundTheAverage() {
    FastCdc cdc = TestData.chunker(ChunkerParams.DEFAULT, 0);
    assertThat(cdc.strictMask()).isEqualTo(0xFFFFFC0000000000L);
    assertThat(cdc.looseMask()).isEqualTo(0xFFFFC00000000000L);
    assertThat(Long.bitCount(small.strictMask())).isEqualTo(15);
    assertThat(Long.bitCount(small.looseMask())).isEqualTo(11);
  }

  @Test
  void restNoLongerThanTheMinimumIsOneChunkAtEndOfInput() {
    byte[] data = TestData.random(7, SMALL.minSize());
    assertThat(small.cut(data, 0, data.length, true)).isEqualTo(data.length);
    assertThat(small.cut(data, 10, 5, true)).isEqualTo(5);
    assertThat(small.cut(data, 0, 0, true)).isZero();
  }

  @Test
  void cutWorksAtAnOffsetLikeAtTheStart() {
    byte[] data = TestData.random(8, 1 << 20);
    byte[] shifted = new byte[data.length + 77];
    System.arraycopy(data, 0, shifted, 77, data.length);
    assertThat(small.cut(shifted, 77, data.length, true))
        .isEqualTo(small.cut(data, 0, data.length, true));
  }

  @Test
  void cuttingAGrowingPrefixGivesTheWholeInputsAnswer() {
    SplittableRandom steps = new SplittableRandom(5);
    for (byte[] data : new byte[][] {TestData.random(9, 1 << 20), new byte[3 * SMALL.maxSize()]}) {
      int off = 0;
      while (off < data.length) {
        int expected = small.cut(data, off, data.length - off, true);
        int len = 0;
        int scanned = 0;
        int got;
        do {
          len = Math.min(data.length - off, len + 1 + steps.nextInt(SMALL.maxSize() / 3));
          got = small.cut(data, off, len, off + len == data.length, scanned);
          scanned = len;
        } while (got < 0);
        assertThat(got).as("chunk at %d", off).isEqualTo(expected);
        off += got;
      }
    }
  }

  @Test
  void aPrefixTooShortToDecideAsksForMore() {
    byte[] zeros = new byte[SMALL.maxSize()];
    assertThat(small.cut(zeros, 0, SMALL.minSize(), false, 0)).isEqualTo(-1);
    assertThat(small.cut(zeros, 0, SMALL.maxSize() - 1, false, 0)).isEqualTo(-1);
    assertThat(small.cut(zeros, 0, SMALL.maxSize(), false, 0)).isEqualTo(SMALL.maxSize());
    assertThat(small.cut(zeros, 0, SMALL.maxSize() - 1, true, 0)).isEqualTo(SMALL.maxSize() - 1);
  }

  @Test
  void tooLittleDataBeforeEndOfInputIsMisuse() {
    byte[] data = new byte[SMALL.maxSize()];
    assertThatThrownBy(() -> small.cut(data, 1, data.length - 1, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> small.cut(data, 1, data.length, true))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(small.cut(data, 0, data.length, false)).isEqualTo(SMALL.maxSize());
  }

  private Set<ByteBuffer> chunkSet(byte[] data) {
    Set<ByteBuffer> chunks = new HashSet<>();
    int off = 0;
    for (int n : TestData.cutAll(small, data)) {
      chunks.add(ByteBuffer.wrap(data, off, n).slice());
      off += n;
    }
    return chunks;
  }
}
