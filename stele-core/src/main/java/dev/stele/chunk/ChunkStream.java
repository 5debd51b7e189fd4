package dev.stele.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;

/**
 * Splits a whole {@link InputStream} or {@link ReadableByteChannel} into chunks with a {@link
 * FastCdc} and hands each to a {@link ChunkSink}, through one reusable buffer.
 *
 * <p>The buffer holds {@code maxSize} bytes and one read of up to {@link #READ} more. The chunker
 * is asked for a boundary among the bytes read so far and says when it needs more ({@link
 * FastCdc#cut(byte[], int, int, boolean, int)}), resuming where it stopped; so the boundaries do
 * not depend on how the source splits its reads, and the buffer need not hold {@code maxSize} bytes
 * beyond the chunk being cut (it held twice {@code maxSize} before: 8 MiB per reading thread). When
 * the buffer is full, the unfinished chunk moves to its front, which copies a small fraction of the
 * bytes chunked; nothing is allocated per chunk.
 *
 * <p>Concurrency: not thread-safe; an instance owns its buffer and chunks one source at a time. Use
 * one per thread; they may share the same {@link FastCdc}.
 */
public final class ChunkStream {
  /**
   * The most bytes asked of the source at once: the JDK reads a channel through a temporary direct
   * buffer of the request's size, cached per thread.
   */
  private static final int READ = 1 << 20;

  private final FastCdc chunker;
  private final byte[] buf;
  private final ByteBuffer view;

  /** A stream chunker with a buffer of {@code maxSize} plus {@code min(maxSize, 1 MiB)} bytes. */
  public ChunkStream(FastCdc chunker) {
    this.chunker = Objects.requireNonNull(chunker, "chunker");
    int max = chunker.params().maxSize();
    this.buf = new byte[max + Math.min(max, READ)];
    this.view = ByteBuffer.wrap(buf);
  }

  /**
   * Reads {@code in} to its end and passes every chunk to {@code sink}, in order. Does not close
   * {@code in}.
   *
   * @return the number of bytes read
   */
  public long chunk(InputStream in, ChunkSink sink) throws IOException {
    return run(in::read, sink);
  }

  /**
   * Reads {@code ch} to its end and passes every chunk to {@code sink}, in order. Does not close
   * {@code ch}. A non-blocking channel that returns 0 is read again until it delivers data.
   *
   * @return the number of bytes read
   */
  public long chunk(ReadableByteChannel ch, ChunkSink sink) throws IOException {
    return run(
        (b, off, len) -> {
          view.limit(off + len).position(off);
          return ch.read(view);
        },
        sink);
  }

  /** A read into {@code buf}: the count, 0 if nothing yet, or -1 at the end. */
  private interface Source {
    int read(byte[] b, int off, int len) throws IOException;
  }

  private long run(Source source, ChunkSink sink) throws IOException {
    Objects.requireNonNull(sink, "sink");
    long total = 0;
    int start = 0; // first byte not yet chunked
    int end = 0; // end of the bytes read
    int scanned = 0; // bytes from start the chunker has searched without finding a boundary
    boolean eof = false;
    while (true) {
      int len = chunker.cut(buf, start, end - start, eof, scanned);
      if (len > 0) {
        sink.accept(buf, start, len);
        start += len;
        scanned = 0;
        continue;
      }
      if (len == 0) {
        return total;
      }
      scanned = end - start;
      if (end == buf.length) {
        // The unfinished chunk is shorter than maxSize: moved to the front, it leaves room to read.
        System.arraycopy(buf, start, buf, 0, scanned);
        start = 0;
        end = scanned;
      }
      int n = source.read(buf, end, Math.min(buf.length - end, READ));
      if (n < 0) {
        eof = true;
      } else {
        end += n;
        total += n;
      }
    }
  }
}
