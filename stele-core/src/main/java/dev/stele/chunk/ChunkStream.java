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
 * <p>The buffer holds {@code 2 * maxSize} bytes. It is refilled whenever fewer than {@code maxSize}
 * unchunked bytes remain, so {@link FastCdc#cut} always sees {@code maxSize} bytes or the whole
 * rest of the input; the boundaries therefore do not depend on how the source splits its reads.
 * Moving the remainder to the front copies less than one byte per byte chunked, and nothing is
 * allocated per chunk.
 *
 * <p>Concurrency: not thread-safe; an instance owns its buffer and chunks one source at a time. Use
 * one per thread; they may share the same {@link FastCdc}.
 */
public final class ChunkStream {
  private final FastCdc chunker;
  private final int max;
  private final byte[] buf;
  private final ByteBuffer view;

  /** A stream chunker with a buffer of {@code 2 * maxSize} bytes. */
  public ChunkStream(FastCdc chunker) {
    this.chunker = Objects.requireNonNull(chunker, "chunker");
    this.max = chunker.params().maxSize();
    this.buf = new byte[2 * max];
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
    boolean eof = false;
    while (true) {
      if (!eof && end - start < max) {
        System.arraycopy(buf, start, buf, 0, end - start);
        end -= start;
        start = 0;
        while (end < buf.length) {
          // At most 1 MiB per read: the JDK reads a channel through a temporary direct buffer of
          // the request's size, cached per thread.
          int n = source.read(buf, end, Math.min(buf.length - end, 1 << 20));
          if (n < 0) {
            eof = true;
            break;
          }
          end += n;
          total += n;
        }
      }
      if (start == end) {
        return total;
      }
      int len = chunker.cut(buf, start, end - start, eof);
      sink.accept(buf, start, len);
      start += len;
    }
  }
}
