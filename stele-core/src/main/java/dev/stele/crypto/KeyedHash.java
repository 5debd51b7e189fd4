package dev.stele.crypto;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one fixed key: names chunks by their plaintext without revealing it, and
 * derives per-chunk encryption keys.
 *
 * <p>Concurrency: immutable; each thread gets its own {@link Mac}. Safe for any number of threads.
 */
final class KeyedHash {
  private static final byte[] NO_PREFIX = new byte[0];
  private final byte[] keyBytes;
  private final SecretKeySpec key;
  private final ThreadLocal<Mac> macs;

  public KeyedHash(byte[] key) {
    this.keyBytes = key.clone();
    this.key = new SecretKeySpec(keyBytes, "HmacSHA256");
    this.macs = ThreadLocal.withInitial(this::newMac);
  }

  /** The hash of {@code data[off, off+len)}: OpenSSL's where it loads, else the JDK's. */
  public byte[] hash(byte[] data, int off, int len) {
    if (NativeCrypto.available()) {
      return NativeCrypto.hmacSha256(keyBytes, NO_PREFIX, data, off, len);
    }
    Mac mac = macs.get();
    mac.update(data, off, len);
    return mac.doFinal();
  }

  public byte[] hash(byte[] data) {
    return hash(data, 0, data.length);
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (InvalidKeyException e) {
      throw new IllegalArgumentException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 unavailable", e);
    }
  }
}
