package dev.stele.s3;

import dev.stele.crypto.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The digests the store and its client take (MD5 for Content-MD5, SHA-256 for SigV4 and names):
 * through {@link MessageDigest}, so libcrypto's where the command line installed it; and
 * HMAC-SHA256 (SigV4's keys and signatures, the retention file's tag).
 */
final class Hashes {
  private Hashes() {}

  static byte[] of(String algorithm, byte[] data) {
    return digest(algorithm).digest(data);
  }

  /** The digest of everything {@code body} holds, read once. */
  static byte[] of(String algorithm, S3Http.Body body) throws IOException {
    MessageDigest digest = digest(algorithm);
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = body.open()) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    return digest.digest();
  }

  /**
   * HMAC-SHA256 of {@code text}'s UTF-8 bytes under {@code key}: libcrypto's where it loads, so
   * that a command does not set up the JDK's cryptography providers for it.
   */
  static byte[] hmacSha256(byte[] key, String text) {
    return Digests.hmacSha256(key, text.getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JDK", e);
    }
  }
}
