package dev.stele.crypto;

import java.util.Arrays;

/**
 * Parameters of the password KDF, recorded in every key blob so that each password can be checked
 * with the parameters it was sealed with.
 *
 * @param algorithm only {@code "argon2id"} for now
 * @param memoryKiB Argon2 memory cost in KiB
 * @param iterations Argon2 time cost
 * @param parallelism Argon2 lanes
 * @param salt random, 16 bytes
 */
public record KdfParams(
    String algorithm, int memoryKiB, int iterations, int parallelism, byte[] salt) {

  /**
   * 46 MiB, one pass, one lane: OWASP's first Argon2id recommendation. Every command pays it once,
   * in a cold JVM where BouncyCastle's Argon2 runs at interpreter speed (about 0.3–0.6 s here), so
   * a stronger default would dominate short commands. {@code repo init} and {@code keys add} take
   * stronger parameters; they are recorded per key blob.
   */
  public static final int DEFAULT_MEMORY_KIB = 46 * 1024;

  public static final int DEFAULT_ITERATIONS = 1;

  public KdfParams {
    if (!"argon2id".equals(algorithm)) {
      throw new IllegalArgumentException("unsupported KDF: " + algorithm);
    }
    if (memoryKiB < 8 || iterations < 1 || parallelism < 1 || salt.length < 16) {
      throw new IllegalArgumentException("KDF parameters too weak");
    }
    salt = salt.clone();
  }

  public static KdfParams argon2id(int memoryKiB, int iterations, byte[] salt) {
    return new KdfParams("argon2id", memoryKiB, iterations, 1, salt);
  }

  @Override
  public byte[] salt() {
    return salt.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KdfParams k
        && algorithm.equals(k.algorithm)
        && memoryKiB == k.memoryKiB
        && iterations == k.iterations
        && parallelism == k.parallelism
        && Arrays.equals(salt, k.salt);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(salt);
  }
}
