package dev.stele.crypto;

/**
 * HMAC-SHA256 under one fixed key: names chunks by their plaintext without revealing it, and
 * derives per-chunk encryption keys.
 *
 * <p>Concurrency: immutable. Safe for any number of threads.
 */
final class KeyedHash {
  private final byte[] key;

  public KeyedHash(byte[] key) {
    this.key = key.clone();
  }

  /** The hash of {@code data[off, off+len)}: OpenSSL's where it loads, else the JDK's. */
  public byte[] hash(byte[] data, int off, int len) {
    return Aead.hmac(key, Aead.NO_PREFIX, data, off, len);
  }

  public byte[] hash(byte[] data) {
    return hash(data, 0, data.length);
  }
}
