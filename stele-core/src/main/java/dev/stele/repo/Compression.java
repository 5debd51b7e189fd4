package dev.stele.repo;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Compresses a payload behind a one-byte flag: {@code 0} stored as is, {@code 1} zstd. Data that
 * does not shrink is stored as is, so incompressible data costs one byte and no decompression.
 */
final class Compression {
  static final byte NONE = 0;
  static final byte ZSTD = 1;

  // A zstd context allocates megabytes of tables; one per thread, reused, instead of one per call.
  private static final ThreadLocal<ZstdCompressCtx> COMPRESSORS =
      ThreadLocal.withInitial(ZstdCompressCtx::new);
  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSORS =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);
  private static final ThreadLocal<byte[]> FRAMES = ThreadLocal.withInitial(() -> new byte[0]);
  // zstd reads and writes native buffers, one pair per thread grown to the largest chunk: on heap
  // arrays zstd-jni pins them (a JNI critical region), and an allocation that fails while a thread
  // holds one makes the collector grow the heap instead of collecting, so a backup's heap grew
  // with its throughput rather than with what it holds (docs/performance.md).
  private static final ThreadLocal<Native> NATIVE = ThreadLocal.withInitial(Native::new);

  private Compression() {}

  /**
   * {@code flag ‖ payload} for {@code data[off, off+len)}; the result may be longer than needed.
   */
  static Framed frame(byte[] data, int off, int len, int level) {
    return frame(data, off, len, level, new byte[1 + (int) Zstd.compressBound(len)]);
  }

  /**
   * As {@link #frame}, into a buffer this thread reuses: the result is valid only until this
   * thread's next call. For a caller that seals it at once, so that a chunk costs no framing array;
   * the buffer stays with the thread, grown to the largest chunk it framed.
   */
  static Framed frameReused(byte[] data, int off, int len, int level) {
    int bound = 1 + (int) Zstd.compressBound(len);
    byte[] out = FRAMES.get();
    if (out.length < bound) {
      out = new byte[bound];
      FRAMES.set(out);
    }
    return frame(data, off, len, level, out);
  }

  /** {@code out} holds at least {@code 1 + compressBound(len)} bytes. */
  private static Framed frame(byte[] data, int off, int len, int level, byte[] out) {
    if (level > 0 && len >= 64) {
      ZstdCompressCtx ctx = COMPRESSORS.get();
      ctx.setLevel(level);
      int n = NATIVE.get().compress(ctx, data, off, len, out);
      if (n < len) {
        out[0] = ZSTD;
        return new Framed(out, 1 + n);
      }
    }
    out[0] = NONE;
    System.arraycopy(data, off, out, 1, len);
    return new Framed(out, 1 + len);
  }

  /** The inverse of {@link #frame}; {@code rawLength} must be the original length. */
  static byte[] unframe(byte[] framed, int rawLength, String where) throws IOException {
    byte[] out = new byte[rawLength];
    unframe(framed, framed.length, rawLength, where, out);
    return out;
  }

  /**
   * Unframes {@code framed[0, length)} into {@code out[0, rawLength)}; {@code rawLength} must be
   * the original length.
   */
  static void unframe(byte[] framed, int length, int rawLength, String where, byte[] out)
      throws IOException {
    if (length == 0) {
      throw new CorruptBlobException(where, "empty payload");
    }
    if (framed[0] == NONE) {
      if (length - 1 != rawLength) {
        throw new CorruptBlobException(where, "length mismatch");
      }
      System.arraycopy(framed, 1, out, 0, rawLength);
      return;
    }
    if (framed[0] != ZSTD) {
      throw new CorruptBlobException(where, "unknown compression " + framed[0]);
    }
    int n;
    try {
      n = DECOMPRESSORS.get().decompressByteArray(out, 0, rawLength, framed, 1, length - 1);
    } catch (ZstdException e) {
      throw new CorruptBlobException(where, "zstd payload does not decompress: " + e.getMessage());
    }
    if (n != rawLength) {
      throw new CorruptBlobException(where, "zstd payload does not decompress to its length");
    }
  }

  /** Unframes a payload whose original length was not recorded (small standalone blobs). */
  static byte[] unframe(byte[] framed, String where) throws IOException {
    if (framed.length > 0 && framed[0] == ZSTD) {
      long size = Zstd.getFrameContentSize(framed, 1, framed.length - 1);
      if (size < 0 || size > Integer.MAX_VALUE) {
        throw new CorruptBlobException(where, "zstd frame without a usable size");
      }
      return unframe(framed, (int) size, where);
    }
    return unframe(framed, Math.max(0, framed.length - 1), where);
  }

  /** A thread's native input and output buffers for zstd. */
  private static final class Native {
    private ByteBuffer in = ByteBuffer.allocateDirect(0);
    private ByteBuffer out = ByteBuffer.allocateDirect(0);

    /**
     * Compresses {@code data[off, off+len)} into {@code framed} from index 1; returns the
     * compressed length, copied only if it is below {@code len} (else the caller stores the data).
     */
    int compress(ZstdCompressCtx ctx, byte[] data, int off, int len, byte[] framed) {
      int bound = (int) Zstd.compressBound(len);
      if (in.capacity() < len) {
        in = ByteBuffer.allocateDirect(len);
      }
      if (out.capacity() < bound) {
        out = ByteBuffer.allocateDirect(bound);
      }
      in.clear().put(data, off, len);
      int n = ctx.compressDirectByteBuffer(out, 0, bound, in, 0, len);
      if (n < len) {
        out.get(0, framed, 1, n);
      }
      return n;
    }
  }

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record Framed(byte[] bytes, int length) {}
}
