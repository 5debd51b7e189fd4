package dev.stele.chunk;

import static dev.stele.chunk.TestData.SMALL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChunkStreamTest {
  private final FastCdc cdc = TestData.chunker(SMALL, 0);

  @Test
  void boundariesDoNotDependOnHowTheInputIsSplitIntoReads() throws IOException {
    byte[] data = TestData.random(10, 3 << 20);
    List<Integer> whole = TestData.cutAll(cdc, data);
    ChunkStream stream = new ChunkStream(cdc);

    for (long seed = 0; seed < 4; seed++) {
      Recorder viaStream = new Recorder();
      long read = stream.chunk(new ChoppyInputStream(data, seed), viaStream);
      Recorder viaChannel = new Recorder();
      stream.chunk(new ChoppyChannel(data, seed), viaChannel);

      assertThat(read).isEqualTo(data.length);
      assertThat(viaStream.lengths).isEqualTo(whole);
      assertThat(viaChannel.lengths).isEqualTo(whole);
      assertThat(viaStream.bytes.toByteArray()).isEqualTo(data);
      assertThat(viaChannel.bytes.toByteArray()).isEqualTo(data);
    }
  }

  @Test
  void inputsAroundTheBufferSizeAreChunkedLikeWholeArrays() throws IOException {
    ChunkStream stream = new ChunkStream(cdc);
    int max = SMALL.maxSize();
    for (int size : new int[] {1, SMALL.minSize(), max - 1, max, max + 1, 2 * max, 2 * max + 1}) {
      byte[] data = TestData.random(size, size);
      Recorder r = new Recorder();
      stream.chunk(new ByteArrayInputStream(data), r);
      assertThat(r.lengths).as("size %d", size).isEqualTo(TestData.cutAll(cdc, data));
      assertThat(r.bytes.toByteArray()).isEqualTo(data);
    }
  }

  @Test
  void emptyInputGivesNoChunks() throws IOException {
    Recorder r = new Recorder();
    assertThat(new ChunkStream(cdc).chunk(InputStream.nullInputStream(), r)).isZero();
    assertThat(r.lengths).isEmpty();
  }

  @Test
  void failureInTheSinkStopsChunkingAndReachesTheCaller() {
    byte[] data = TestData.random(11, 1 << 20);
    List<Integer> seen = new ArrayList<>();
    ChunkSink failing =
        (buf, off, len) -> {
          seen.add(len);
          throw new IOException("pack store full");
        };
    assertThatThrownBy(() -> new ChunkStream(cdc).chunk(new ByteArrayInputStream(data), failing))
        .isInstanceOf(IOException.class)
        .hasMessage("pack store full");
    assertThat(seen).hasSize(1);
  }

  private static final class Recorder implements ChunkSink {
    final List<Integer> lengths = new ArrayList<>();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void accept(byte[] buf, int off, int len) {
      lengths.add(len);
      bytes.write(buf, off, len);
    }
  }

  /** Returns reads of random sizes, from one byte to more than the chunker's buffer. */
  private static final class ChoppyInputStream extends InputStream {
    private final byte[] data;
    private final SplittableRandom random;
    private int pos;

    ChoppyInputStream(byte[] data, long seed) {
      this.data = data;
      this.random = new SplittableRandom(seed);
    }

    @Override
    public int read() {
      return pos < data.length ? data[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos == data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, data.length - pos), nextSize(random));
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  /** Like {@link ChoppyInputStream}, and sometimes reads nothing, as a non-blocking channel may. */
  private static final class ChoppyChannel implements ReadableByteChannel {
    private final byte[] data;
    private final SplittableRandom random;
    private int pos;

    ChoppyChannel(byte[] data, long seed) {
      this.data = data;
      this.random = new SplittableRandom(seed);
    }

    @Override
    public int read(ByteBuffer dst) {
      if (pos == data.length) {
        return -1;
      }
      if (random.nextInt(8) == 0) {
        return 0;
      }
      int n = Math.min(Math.min(dst.remaining(), data.length - pos), nextSize(random));
      dst.put(data, pos, n);
      pos += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  private static int nextSize(SplittableRandom random) {
    return switch (random.nextInt(3)) {
      case 0 -> 1 + random.nextInt(16);
      case 1 -> 1 + random.nextInt(4096);
      default -> 1 + random.nextInt(3 * SMALL.maxSize());
    };
  }
}
