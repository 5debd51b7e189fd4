package dev.stele.crypto;

import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Derives a 32-byte key-encryption key from a password, memory-hard (Argon2id), and counts the
 * derivations this process ran: each costs its memory and time, so a long-lived process should run
 * one per repository it opens, which the operator's metrics show.
 */
public final class Kdf {
  private static final AtomicLong DERIVATIONS = new AtomicLong();

  private Kdf() {}

  /**
   * Loads what {@link #derive} uses (libargon2 through JNA, or else BouncyCastle's Argon2), without
   * deriving anything: a command line does it on a second thread while it parses its arguments.
   */
  public static void prepare() {
    if (!NativeArgon2.available()) {
      new Argon2BytesGenerator();
    }
  }

  /** How many derivations this process has run. */
  public static long derivations() {
    return DERIVATIONS.get();
  }

  /**
   * Derives the key: through {@code libargon2} where it loads ({@link NativeArgon2}), else through
   * BouncyCastle; both compute the same function, so the same bytes.
   */
  public static byte[] derive(char[] password, KdfParams params) {
    DERIVATIONS.incrementAndGet();
    byte[] pw = utf8(password);
    try {
      byte[] salt = params.salt();
      int t = params.iterations();
      int m = params.memoryKiB();
      int p = params.parallelism();
      byte[] out = NativeArgon2.derive(pw, salt, t, m, p);
      return out != null ? out : bouncyCastle(pw, salt, t, m, p);
    } finally {
      Arrays.fill(pw, (byte) 0);
    }
  }

  /** Argon2id version 0x13 by BouncyCastle, in Java. */
  static byte[] bouncyCastle(
      byte[] password, byte[] salt, int iterations, int memoryKiB, int parallelism) {
    Argon2Parameters argon =
        new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
            .withVersion(Argon2Parameters.ARGON2_VERSION_13)
            .withMemoryAsKB(memoryKiB)
            .withIterations(iterations)
            .withParallelism(parallelism)
            .withSalt(salt)
            .build();
    Argon2BytesGenerator generator = new Argon2BytesGenerator();
    generator.init(argon);
    byte[] out = new byte[32];
    generator.generateBytes(password, out);
    return out;
  }

  @SuppressWarnings("ByteBufferBackingArray") // wipes the whole backing array, whatever the offset
  private static byte[] utf8(char[] password) {
    var buffer = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    if (buffer.hasArray()) {
      Arrays.fill(buffer.array(), (byte) 0);
    }
    return bytes;
  }
}
