package dev.stele.chunk;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * The 256 random 64-bit values of a gear hash, derived from a secret key.
 *
 * <p>Derivation (part of the repository format): let {@code K} be the 32-byte key. For {@code j =
 * 0..127}, block {@code j} is {@code AES-256-Encrypt(K, C_j)} where {@code C_j} is the 16-byte
 * big-endian encoding of the integer {@code j} (eight zero bytes, then {@code j} as a big-endian
 * 64-bit integer). Concatenating the 128 blocks gives 2048 bytes; {@code G[i]} is bytes {@code
 * 8i..8i+7} of it read as a big-endian {@code long}. This is the AES-256-CTR keystream with an
 * all-zero initial counter block, i.e. a PRF of the key: without the key the table, and hence the
 * boundaries, cannot be predicted.
 *
 * <p>The key must be used for nothing else; the repository derives it from its master key for this
 * purpose only.
 *
 * <p>Concurrency: immutable; instances may be shared freely across threads.
 */
public final class GearTable {
  /** Number of entries, one per byte value. */
  public static final int SIZE = 256;

  private final long[] values;

  private GearTable(long[] values) {
    this.values = values;
  }

  /**
   * Derives the table from a 32-byte key as described in the class comment.
   *
   * @throws IllegalArgumentException if {@code key32} is not 32 bytes long
   */
  public static GearTable fromKey(byte[] key32) {
    if (key32 == null || key32.length != 32) {
      throw new IllegalArgumentException(
          "gear key must be 32 bytes, got " + (key32 == null ? "null" : key32.length));
    }
    ByteBuffer counters = ByteBuffer.allocate(SIZE * Long.BYTES);
    for (long j = 0; j < SIZE * Long.BYTES / 16; j++) {
      counters.putLong(0L).putLong(j);
    }
    byte[] stream;
    try {
      Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key32, "AES"));
      stream = aes.doFinal(counters.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256 is required by the Java platform", e);
    }
    long[] values = new long[SIZE];
    ByteBuffer.wrap(stream).asLongBuffer().get(values);
    Arrays.fill(stream, (byte) 0);
    return new GearTable(values);
  }

  /** Returns {@code G[i]} for a byte value {@code 0 <= i < 256}. */
  public long get(int i) {
    return values[i];
  }

  /** A copy of the table, for the chunker to keep in its own field. */
  long[] toArray() {
    return values.clone();
  }

  /** Does not print the values: they are derived from a secret. */
  @Override
  public String toString() {
    return "GearTable[256 keyed values]";
  }
}
