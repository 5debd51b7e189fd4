package dev.stele.repo;

import com.github.luben.zstd.EndDirective;
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

  /**
   * A 1 MiB window at every level. A chunk is compressed as a stream of slices ({@link Native}), so
   * zstd keeps a buffer of its window in the context of each thread that seals: level 3's own 2 MiB
   * window would double it, for 0.03% fewer bytes on the benchmark set's chunks of up to 4 MiB
   * (docs/performance.md, eleventh round).
   */
  private static final int WINDOW_LOG = 20;

  /**
   * At the default level, 3, zstd's double-fast search keeps a table of 8-byte matches (hash log
   * 17, 512 KiB) and one of 5-byte matches (its "chain log", 16: 256 KiB), which with the window
   * outgrow a core's cache. A 64 KiB table of short matches (log 14) took 12-17% of zstd's time on
   * the benchmark set's programs and documents for 0.14% more stored bytes in a whole backup (0.05%
   * on the Linux tree, whose files are small enough that zstd shrinks its tables itself);
   * docs/performance.md, twenty-second round. Other levels keep zstd's own tables.
   */
  private static final int LEVEL_3_CHAIN_LOG = 14;

  // A zstd context allocates megabytes of tables; one per thread, reused, instead of one per call.
  // Its window is set once: a frame's end keeps the parameters, the level is set per call.
  private static final ThreadLocal<ZstdCompressCtx> COMPRESSORS =
      ThreadLocal.withInitial(
          () -> {
            ZstdCompressCtx ctx = new ZstdCompressCtx();
            ctx.setWindowLog(WINDOW_LOG);
            return ctx;
          });
  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSORS =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);
  // zstd reads and writes native buffers, a small pair per thread: on heap arrays zstd-jni pins
  // them (a JNI critical region), and an allocation that fails while a thread holds one makes the
  // collector grow the heap instead of collecting, so a backup's heap grew with its throughput
  // rather than with what it holds (docs/performance.md).
  private static final ThreadLocal<Native> NATIVE = ThreadLocal.withInitial(Native::new);

  private Compression() {}

  /**
   * Loads zstd's native library, with one-off calls that leave no context in this thread (see
   * {@link OpenPreparation}).
   */
  static void prepare() {
    byte[] sample = new byte[256];
    Zstd.decompress(Zstd.compress(sample, 1), sample.length);
  }

  /**
   * {@code flag ‖ payload} for {@code data[off, off+len)}; the result may be longer than needed.
   */
  static Framed frame(byte[] data, int off, int len, int level) {
    byte[] out = new byte[bound(len)];
    return new Framed(out, frame(data, off, len, level, out, 0));
  }

  /**
   * The most bytes {@link #frame} writes for {@code len} bytes of data: the flag and the data as
   * is, since a payload that does not shrink is stored so.
   */
  static int bound(int len) {
    return 1 + len;
  }

  /**
   * Writes {@code flag ‖ payload} for {@code data[off, off+len)} into {@code out} from {@code
   * outOff}, which must leave room for {@link #bound}{@code (len)} bytes; returns its length.
   */
  static int frame(byte[] data, int off, int len, int level, byte[] out, int outOff) {
    if (level > 0 && len >= 64) {
      ZstdCompressCtx ctx = COMPRESSORS.get();
      ctx.setLevel(level);
      ctx.setChainLog(level == 3 ? LEVEL_3_CHAIN_LOG : 0); // 0: the level's own
      int n = NATIVE.get().compress(ctx, data, off, len, out, outOff + 1);
      if (n < len) {
        out[outOff] = ZSTD;
        return 1 + n;
      }
    }
    out[outOff] = NONE;
    System.arraycopy(data, off, out, outOff + 1, len);
    return 1 + len;
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
    unframe(framed, 0, length, rawLength, where, out);
  }

  /** {@link #unframe(byte[], int, int, String, byte[])} of {@code framed[off, off+length)}. */
  static void unframe(byte[] framed, int off, int length, int rawLength, String where, byte[] out)
      throws IOException {
    if (length == 0) {
      throw new CorruptBlobException(where, "empty payload");
    }
    if (framed[off] == NONE) {
      if (length - 1 != rawLength) {
        throw new CorruptBlobException(where, "length mismatch");
      }
      System.arraycopy(framed, off + 1, out, 0, rawLength);
      return;
    }
    if (framed[off] != ZSTD) {
      throw new CorruptBlobException(where, "unknown compression " + framed[off]);
    }
    int n;
    try {
      n = DECOMPRESSORS.get().decompressByteArray(out, 0, rawLength, framed, off + 1, length - 1);
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

  /**
   * A thread's native input and output buffers for zstd, of {@link #SLICE} bytes each: a chunk is
   * compressed as one frame, streamed through them a slice at a time, so that a thread compressing
   * chunks of up to 4 MiB holds a quarter of a megabyte here, not twice the largest chunk (zstd
   * keeps its own window of 1 MiB, {@link #WINDOW_LOG}).
   */
  private static final class Native {
    private static final int SLICE = 128 << 10;
    private final ByteBuffer in = ByteBuffer.allocateDirect(SLICE);
    private final ByteBuffer out = ByteBuffer.allocateDirect(SLICE);

    /**
     * Compresses {@code data[off, off+len)} into {@code dst} from {@code dstOff}; returns the
     * compressed length if it is below {@code len}, else {@code len} (the caller stores the data);
     * writes fewer than {@code len} bytes into {@code dst}.
     */
    int compress(ZstdCompressCtx ctx, byte[] data, int off, int len, byte[] dst, int dstOff) {
      ctx.setPledgedSrcSize(len);
      int produced = 0;
      for (int done = 0; done < len; ) {
        int n = Math.min(SLICE, len - done);
        in.clear().put(data, off + done, n).flip();
        done += n;
        EndDirective op = done == len ? EndDirective.END : EndDirective.CONTINUE;
        boolean flushed;
        do {
          out.clear();
          flushed = ctx.compressDirectByteBufferStream(out, in, op);
          if (produced + out.position() < len) {
            out.get(0, dst, dstOff + produced, out.position());
          }
          produced += out.position();
        } while (in.hasRemaining() || (op == EndDirective.END && !flushed));
      }
      // A frame that does not shrink is still ended, not abandoned: after zstd-jni's reset the next
      // setPledgedSrcSize was refused ("not authorized at current processing stage"). It costs the
      // one whole compression of the chunk that the one-shot call always cost.
      return Math.min(produced, len);
    }
  }

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record Framed(byte[] bytes, int length) {}
}
