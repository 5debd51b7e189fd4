package dev.stele.crypto;

import java.nio.charset.StandardCharsets;

/**
 * HKDF-SHA256 (RFC 5869), used to split the master key into independent subkeys. Its HMAC is {@link
 * Aead#hmac}'s: OpenSSL's where it loads, so that opening a repository does not set up the JDK's
 * cryptography providers (some 30 ms of every command).
 */
final class Hkdf {
  private Hkdf() {}

  /** HKDF-Extract then HKDF-Expand with an empty salt and the ASCII {@code info}. */
  public static byte[] derive(byte[] inputKey, String info, int length) {
    return derive(new byte[32], inputKey, info.getBytes(StandardCharsets.US_ASCII), length);
  }

  public static byte[] derive(byte[] salt, byte[] inputKey, byte[] info, int length) {
    byte[] prk =
        Aead.hmac(
            salt.length == 0 ? new byte[32] : salt, Aead.NO_PREFIX, inputKey, 0, inputKey.length);
    byte[] out = new byte[length];
    byte[] block = new byte[0];
    for (int counter = 1, done = 0; done < length; counter++) {
      // T(counter) = HMAC(prk, T(counter - 1) ‖ info ‖ counter)
      byte[] prefix = new byte[block.length + info.length];
      System.arraycopy(block, 0, prefix, 0, block.length);
      System.arraycopy(info, 0, prefix, block.length, info.length);
      block = Aead.hmac(prk, prefix, new byte[] {(byte) counter}, 0, 1);
      int n = Math.min(block.length, length - done);
      System.arraycopy(block, 0, out, done, n);
      done += n;
    }
    return out;
  }
}
