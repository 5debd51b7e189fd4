package dev.stele.cli;

import dev.stele.crypto.KdfParams;
import java.security.SecureRandom;
import picocli.CommandLine.Option;

/** Argon2id cost for a new password. Hidden: the defaults are right outside of tests. */
final class KdfOptions {
  @Option(
      names = "--kdf-memory",
      paramLabel = "KiB",
      hidden = true,
      description = "Argon2id memory in KiB (default ${DEFAULT-VALUE}).")
  int memoryKiB = KdfParams.DEFAULT_MEMORY_KIB;

  @Option(
      names = "--kdf-iterations",
      paramLabel = "N",
      hidden = true,
      description = "Argon2id passes (default ${DEFAULT-VALUE}).")
  int iterations = KdfParams.DEFAULT_ITERATIONS;

  KdfParams params() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    try {
      return KdfParams.argon2id(memoryKiB, iterations, salt);
    } catch (IllegalArgumentException e) {
      throw CliException.usage("bad KDF parameters: " + e.getMessage());
    }
  }
}
