package dev.stele.repo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdCompressCtx;
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

  @Test
  void levelThreeSearchesASmallerTableOfShortMatchesAndOtherLevelsKeepTheirOwn() throws Exception {
    int len = 100 << 10; // one slice, so the frame is what one call of zstd makes of it
    byte[] data = words(len);
    byte[][] frames = new byte[3][];
    // a thread of its own, so that its zstd context starts as a new one does
    Thread thread =
        new Thread(
            () -> {
              int i = 0;
              for (int level : new int[] {4, 3, 4}) {
                Compression.Framed f = Compression.frame(data, 0, len, level);
                frames[i++] = Arrays.copyOfRange(f.bytes(), 1, f.length());
              }
            });
    thread.start();
    thread.join();

    assertThat(Arrays.equals(frames[1], zstd(data, 3, 14)))
        .as("level 3, short-match log 14")
        .isTrue();
    assertThat(Arrays.equals(frames[1], zstd(data, 3, 0))).as("level 3, zstd's own").isFalse();
    // level 4, the next of zstd's double-fast levels, whose short-match table is larger still
    assertThat(Arrays.equals(frames[0], zstd(data, 4, 0))).as("level 4").isTrue();
    assertThat(Arrays.equals(frames[2], frames[0])).as("level 4 after level 3").isTrue();
  }

  /**
   * {@code data} compressed in one call, with a 1 MiB window and the given chain log (0: the
   * level's).
   */
  private static byte[] zstd(byte[] data, int level, int chainLog) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      ctx.setWindowLog(20);
      ctx.setChainLog(chainLog);
      ctx.setLevel(level);
      return ctx.compress(data);
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

  /** Words of a vocabulary of thousands, some far more common than others, as text has them. */
  private static byte[] words(int len) {
    Random r = new Random(len);
    String[] vocabulary = new String[4000];
    for (int i = 0; i < vocabulary.length; i++) {
      StringBuilder word = new StringBuilder();
      for (int n = 3 + r.nextInt(8); n > 0; n--) {
        word.append((char) ('a' + r.nextInt(26)));
      }
      vocabulary[i] = word.append(' ').toString();
    }
    byte[] b = new byte[len];
    for (int at = 0; at < len; ) {
      byte[] word =
          vocabulary[(int) Math.abs(r.nextGaussian() * 600) % vocabulary.length].getBytes(UTF_8);
      int n = Math.min(word.length, len - at);
      System.arraycopy(word, 0, b, at, n);
      at += n;
    }
    return b;
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
