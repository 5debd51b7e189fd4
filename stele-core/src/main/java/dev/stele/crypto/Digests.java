package dev.stele.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Plain SHA-256: OpenSSL's where it loads ({@link NativeCrypto}), else the JDK's; the same bytes.
 */
public final class Digests {
  private Digests() {}

  public static byte[] sha256(byte[] data) {
    if (NativeCrypto.available()) {
      return NativeCrypto.sha256(data);
    }
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
