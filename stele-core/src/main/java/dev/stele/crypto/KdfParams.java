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

  /** 64 MiB, 3 passes, 1 lane: about half a second on the project machine. */
  public static final int DEFAULT_MEMORY_KIB = 64 * 1024;

  public static final int DEFAULT_ITERATIONS = 3;

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
