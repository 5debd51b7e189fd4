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
@SuppressWarnings("ArrayRecordComponent") // equals and hashCode below compare the salt's bytes
public record KdfParams(
    String algorithm, int memoryKiB, int iterations, int parallelism, byte[] salt) {

  /**
   * 19 MiB and two passes: one of OWASP's two equivalent Argon2id minimums (the other is 46 MiB and
   * one pass). Every command pays it once, in a cold JVM where BouncyCastle's Argon2 runs slowly;
   * this one measured 0.22–0.26 s here against 0.28–0.34 s for the other, and needs 27 MiB less
   * memory. {@code repo init} and {@code keys add} take stronger parameters; they are recorded per
   * key blob.
   */
  public static final int DEFAULT_MEMORY_KIB = 19 * 1024;

  public static final int DEFAULT_ITERATIONS = 2;

  /**
   * Two lanes, which libargon2 fills on two threads: the same memory and passes as one lane, so the
   * same memory-time cost per guess (RFC 9106 recommends four lanes), at two thirds of the wall
   * time on two cores (0.08 against 0.11–0.14 s here). BouncyCastle fills the lanes one after the
   * other, to the same bytes.
   */
  public static final int DEFAULT_PARALLELISM = 2;

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
    return new KdfParams("argon2id", memoryKiB, iterations, DEFAULT_PARALLELISM, salt);
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
