package dev.stele.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The digests the store and its client take (MD5 for Content-MD5, SHA-256 for SigV4 and names):
 * through {@link MessageDigest}, so libcrypto's where the command line installed it; and
 * HMAC-SHA256 (SigV4's keys and signatures, the retention file's tag), built on that SHA-256 as RFC
 * 2104 gives it rather than taken from {@code javax.crypto.Mac}, whose first use sets up every JDK
 * cryptography provider and the JCE policy (some 30 ms of a command's start).
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

  /** HMAC-SHA256 of {@code text}'s UTF-8 bytes under {@code key}. */
  static byte[] hmacSha256(byte[] key, String text) {
    MessageDigest sha256 = digest("SHA-256");
    byte[] block = new byte[64];
    byte[] k = key.length > block.length ? sha256.digest(key) : key;
    System.arraycopy(k, 0, block, 0, k.length);
    for (int i = 0; i < block.length; i++) {
      block[i] ^= 0x36;
    }
    sha256.update(block);
    byte[] inner = sha256.digest(text.getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < block.length; i++) {
      block[i] ^= 0x36 ^ 0x5c;
    }
    sha256.update(block);
    return sha256.digest(inner);
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JDK", e);
    }
  }
}
