package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Compression streams a chunk through 128 KiB native buffers as one zstd frame. */
class CompressionTest {

  @Test
  void compressibleDataOfManySlicesIsOneFrameThatDecompresses() throws Exception {
    for (int len : new int[] {1000, (128 << 10) - 1, 128 << 10, (128 << 10) + 1, (4 << 20) + 7}) {
      byte[] data = text(len);
      byte[] out = new byte[10 + Compression.bound(len)];
      int n = Compression.frame(data, 0, len, 2, out, 10);

      assertThat(out[10]).as("length %d", len).isEqualTo(Compression.ZSTD);
      assertThat(n).as("length %d", len).isLessThan(len / 2);
      byte[] framed = Arrays.copyOfRange(out, 10, 10 + n);
      assertThat(Compression.unframe(framed, len, "test")).isEqualTo(data);
      // The frame records its size, which standalone blobs are read back by.
      assertThat(Compression.unframe(framed, "test")).isEqualTo(data);
    }
  }

  @Test
  void dataThatDoesNotShrinkIsStoredAsIsWithinTheBound() throws Exception {
    int len = (300 << 10) + 5;
    byte[] data = new byte[len];
    new Random(7).nextBytes(data);
    byte[] out = new byte[Compression.bound(len)];

    int n = Compression.frame(data, 0, len, 2, out, 0);

    assertThat(out[0]).isEqualTo(Compression.NONE);
    assertThat(n).isEqualTo(1 + len);
    assertThat(Compression.unframe(out, len, "test")).isEqualTo(data);
    // The frame that did not shrink leaves the thread's context ready for the next chunk.
    byte[] next = text(200 << 10);
    Compression.Framed framed = Compression.frame(next, 0, next.length, 2);
    assertThat(framed.bytes()[0]).isEqualTo(Compression.ZSTD);
    byte[] bytes = Arrays.copyOf(framed.bytes(), framed.length());
    assertThat(Compression.unframe(bytes, "test")).isEqualTo(next);
  }

  @Test
  void framesAskForAWindowOfAtMostOneMebibyteAtEveryLevel() throws Exception {
    int len = 4 << 20;
    byte[] data = text(len);
    for (int level : new int[] {1, 3, 9, 19, 3}) {
      Compression.Framed framed = Compression.frame(data, 0, len, level);
      assertThat(windowSize(framed.bytes())).as("level %d", level).isEqualTo(1 << 20);
      byte[] bytes = Arrays.copyOf(framed.bytes(), framed.length());
      assertThat(Compression.unframe(bytes, len, "test")).isEqualTo(data);
    }
  }

  /**
   * The window a zstd frame (after the one-byte flag) asks a decoder for, from its header: the
   * descriptor byte after the magic, then, without the single-segment flag, the window byte.
   */
  private static long windowSize(byte[] framed) {
    int descriptor = framed[5] & 0xFF;
    assertThat(descriptor & 0x20).as("a frame of 4 MiB is not one segment").isZero();
    int window = framed[6] & 0xFF;
    long base = 1L << (10 + (window >>> 3));
    return base + (base / 8) * (window & 7);
  }

  private static byte[] text(int len) {
    byte[] b = new byte[len];
    Random r = new Random(len);
    for (int i = 0; i < len; i++) {
      b[i] = (byte) ('a' + r.nextInt(6));
    }
    return b;
  }
}
