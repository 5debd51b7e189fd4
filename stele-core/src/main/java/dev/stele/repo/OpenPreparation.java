package dev.stele.repo;

import dev.stele.crypto.Kdf;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Loads and initialises what opening a repository uses first, on throwaway data: the JSON mapping
 * of the format and key blobs (Jackson and its date formats), the key derivation's library,
 * libcrypto's AES and HMAC, HKDF and zstd's native library. In a fresh JVM their first use costs
 * about a tenth of a second, before any work; {@link Repository#prepareToOpen} lets a command line
 * spend it on its second core while the first parses the arguments.
 *
 * <p>Nothing here is stored, kept or derived from a password. What fails is returned, for tests;
 * {@link Repository#prepareToOpen} drops it, since the open meets the same failure and reports it.
 */
final class OpenPreparation {
  private OpenPreparation() {}

  /** Runs every step; returns what stopped it, or null if it ran to the end. */
  static @Nullable Exception run() {
    try {
      Instant now = Instant.EPOCH;
      RepositoryFormat format =
          RepositoryInit.defaults(Clock.systemUTC()).format("0".repeat(32), now);
      byte[] formatBytes = format.toBytes();
      RepositoryFormat.parse(formatBytes);
      Kdf.prepare();
      KeyBlob.rehearse(Sha256.of(formatBytes), now);
      Compression.prepare();
      return null;
    } catch (IOException | RuntimeException e) {
      return e;
    } catch (LinkageError e) {
      return new IllegalStateException(e);
    }
  }
}
