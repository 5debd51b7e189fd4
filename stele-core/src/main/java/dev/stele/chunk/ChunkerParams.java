package dev.stele.chunk;

/**
 * Chunk size bounds, recorded in the repository configuration because they decide where chunks are
 * cut.
 *
 * <p>{@code avgSize} must be a power of two (it sets the number of mask bits); {@code minSize} and
 * {@code maxSize} need not be. Every chunk except the last of a stream is longer than {@code
 * minSize} and at most {@code maxSize} bytes.
 *
 * @param minSize bytes skipped before a boundary is looked for; at least 64, the gear hash window
 * @param avgSize target size, a power of two with {@code minSize < avgSize < maxSize}
 * @param maxSize hard upper bound on a chunk, at most {@link #MAX_MAX_SIZE}
 */
public record ChunkerParams(int minSize, int avgSize, int maxSize) {
  /** Upper bound on {@code maxSize}: 64 MiB. */
  static final int MAX_MAX_SIZE = 64 << 20;

  /** Lower bound on {@code minSize}: the 64-byte window of a 64-bit gear hash. */
  static final int MIN_MIN_SIZE = 64;

  /** 256 KiB / 1 MiB / 4 MiB. */
  public static final ChunkerParams DEFAULT = new ChunkerParams(256 << 10, 1 << 20, 4 << 20);

  /**
   * @throws IllegalArgumentException if the sizes break the rules above
   */
  public ChunkerParams {
    if (minSize < MIN_MIN_SIZE) {
      throw new IllegalArgumentException(
          "minSize " + minSize + " is below " + MIN_MIN_SIZE + " bytes");
    }
    if (Integer.bitCount(avgSize) != 1) {
      throw new IllegalArgumentException("avgSize " + avgSize + " is not a power of two");
    }
    if (!(minSize < avgSize && avgSize < maxSize)) {
      throw new IllegalArgumentException(
          "need minSize < avgSize < maxSize, got " + minSize + " / " + avgSize + " / " + maxSize);
    }
    if (maxSize > MAX_MAX_SIZE) {
      throw new IllegalArgumentException(
          "maxSize " + maxSize + " exceeds " + MAX_MAX_SIZE + " bytes (64 MiB)");
    }
  }

  /** log2 of {@code avgSize}. */
  int avgBits() {
    return Integer.numberOfTrailingZeros(avgSize);
  }
}
