package dev.stele.chunk;

import java.util.Objects;

/**
 * FastCDC content-defined chunking (Xia et al., USENIX ATC 2016) with a keyed gear table and
 * normalized chunking at level 2.
 *
 * <p>The exact algorithm, which is part of the repository format. Let {@code G} be the {@link
 * GearTable} (256 unsigned 64-bit values), {@code min}, {@code avg}, {@code max} the {@link
 * ChunkerParams} and {@code b = log2(avg)}. The two masks select the <em>high</em> bits:
 *
 * <pre>{@code
 * maskS = ~0L << (64 - (b + 2))   // b + 2 high bits, used before avg ("stricter")
 * maskL = ~0L << (64 - (b - 2))   // b - 2 high bits, used from avg on ("looser")
 * }</pre>
 *
 * For the default {@code avg} of 1 MiB ({@code b = 20}): {@code maskS = 0xFFFFFC0000000000} (22
 * bits) and {@code maskL = 0xFFFFC00000000000} (18 bits). Given {@code n} bytes {@code x[0..n-1]}
 * starting at the current position, the length of the next chunk is:
 *
 * <ol>
 *   <li>if {@code n <= min}: {@code n} (only at the end of the input);
 *   <li>otherwise let {@code limit = min(n, max)} and {@code normal = min(limit, avg)}; start with
 *       {@code fp = 0} and, for {@code i = min, min+1, ..., limit-1}, compute {@code fp = (fp << 1)
 *       + G[x[i]]} (64-bit, wrapping); the first {@code i} with {@code (fp & maskS) == 0} when
 *       {@code i < normal}, or {@code (fp & maskL) == 0} when {@code i >= normal}, ends the chunk,
 *       whose length is {@code i + 1} (the byte that completed the match belongs to this chunk);
 *   <li>if no {@code i} matches, the length is {@code limit}.
 * </ol>
 *
 * Bytes {@code x[0..min-1]} are not hashed at all: the hash starts afresh at zero for every chunk.
 * So every chunk but the last is {@code min+1..max} bytes long; a stream of zeros (or any input
 * with no match) yields {@code max}-byte chunks.
 *
 * <p>Why high bits: with {@code fp = (fp << 1) + G[x]}, bit {@code k} of {@code fp} depends only on
 * the last {@code k + 1} bytes, so a mask on the low bits would look at a window of a few bytes
 * only. The top bits depend on all of the last 64 bytes. The paper gets the same effect by
 * spreading the mask bits across the word; contiguous high bits are the simplest form of it.
 *
 * <p>Concurrency: immutable; one instance may be shared by any number of threads. {@link #cut}
 * keeps all of its state in locals and allocates nothing.
 */
public final class FastCdc {
  private final long[] gear;
  private final ChunkerParams params;
  private final int min;
  private final int avg;
  private final int max;
  private final long maskS;
  private final long maskL;

  /** A chunker with the given bounds and gear table. */
  public FastCdc(ChunkerParams params, GearTable gear) {
    this.params = Objects.requireNonNull(params, "params");
    this.gear = gear.toArray();
    this.min = params.minSize();
    this.avg = params.avgSize();
    this.max = params.maxSize();
    int bits = params.avgBits();
    this.maskS = ~0L << (64 - (bits + 2));
    this.maskL = ~0L << (64 - (bits - 2));
  }

  /** The bounds this chunker was built with. */
  public ChunkerParams params() {
    return params;
  }

  /** The mask used before {@code avgSize}; exposed for the format documentation and tests. */
  public long strictMask() {
    return maskS;
  }

  /** The mask used from {@code avgSize} on; exposed for the format documentation and tests. */
  public long looseMask() {
    return maskL;
  }

  /**
   * Returns the length of the chunk that starts at {@code buf[off]}.
   *
   * <p>When {@code eof} is false the caller must supply at least {@code maxSize} bytes, so that the
   * result cannot depend on how much has been read; when fewer bytes remain in the whole input,
   * they must all be present and {@code eof} true. With {@code eof} the last chunk is whatever is
   * left when no boundary is found; an empty range gives 0.
   *
   * @param buf the data
   * @param off where the chunk starts
   * @param len how many bytes from {@code off} are available
   * @param eof whether {@code buf[off..off+len-1]} is the whole rest of the input
   * @return the chunk length, between 1 and {@code min(len, maxSize)} (0 only if {@code len == 0})
   * @throws IllegalArgumentException if {@code !eof} and {@code len < maxSize}
   * @throws IndexOutOfBoundsException if the range is not within {@code buf}
   */
  public int cut(byte[] buf, int off, int len, boolean eof) {
    if (!eof && len < max) {
      throw new IllegalArgumentException(
          "need at least maxSize " + max + " bytes before end of input, got " + len);
    }
    return cut(buf, off, len, eof, 0);
  }

  /**
   * Returns the length of the chunk that starts at {@code buf[off]} if the {@code len} bytes read
   * so far decide it, or -1 if they do not: no boundary among them, fewer than {@code maxSize}, and
   * more input to come. So a reader needs to hold only the chunk it is reading, not {@code maxSize}
   * bytes ahead. The answer is the one {@link #cut(byte[], int, int, boolean)} gives with all the
   * input.
   *
   * @param scanned how many of the bytes from {@code off} an earlier call for this chunk saw and
   *     answered -1 for (0 for a new chunk): only those after them are searched, the 64 before them
   *     hashed again to restore the fingerprint, which depends on no older byte
   * @throws IndexOutOfBoundsException if the range is not within {@code buf}
   */
  public int cut(byte[] buf, int off, int len, boolean eof, int scanned) {
    Objects.checkFromIndexSize(off, len, buf.length);
    if (len <= min) {
      return eof ? len : -1;
    }
    int limit = Math.min(len, max);
    int normalEnd = off + Math.min(limit, avg);
    int end = off + limit;
    long[] g = gear;
    long fp = 0;
    int i = off + Math.max(min, Math.min(scanned, limit));
    for (int j = Math.max(off + min, i - Long.SIZE); j < i; j++) {
      fp = (fp << 1) + g[buf[j] & 0xFF];
    }
    long mask = maskS;
    for (; i < normalEnd; i++) {
      fp = (fp << 1) + g[buf[i] & 0xFF];
      if ((fp & mask) == 0) {
        return i + 1 - off;
      }
    }
    mask = maskL;
    for (; i < end; i++) {
      fp = (fp << 1) + g[buf[i] & 0xFF];
      if ((fp & mask) == 0) {
        return i + 1 - off;
      }
    }
    return eof || len >= max ? limit : -1;
  }
}
