package dev.stele.crypto;

import java.security.SecureRandom;

/**
 * The repository's 32-byte secret and the subkeys derived from it with HKDF-SHA256. Every
 * password's key blob seals the same master key.
 *
 * <p>Subkeys, by HKDF info string: {@code "stele chunk-id"} names chunks, {@code "stele chunk-key"}
 * derives each chunk's AES key, {@code "stele blob"} seals standalone blobs and pack footers,
 * {@code "stele gear"} keys the chunker's gear table, {@code "stele local cache"} authenticates
 * what a client keeps on its own disk between processes (never stored in the repository).
 */
public final class MasterKey {
  private final byte[] secret;
  private final KeyedHash chunkIds;
  private final KeyedHash chunkKeys;
  private final byte[] blobKey;
  private final byte[] gearKey;

  public MasterKey(byte[] secret) {
    if (secret.length != 32) {
      throw new IllegalArgumentException("master key must be 32 bytes");
    }
    this.secret = secret.clone();
    this.chunkIds = new KeyedHash(Hkdf.derive(secret, "stele chunk-id", 32));
    this.chunkKeys = new KeyedHash(Hkdf.derive(secret, "stele chunk-key", 32));
    this.blobKey = Hkdf.derive(secret, "stele blob", 32);
    this.gearKey = Hkdf.derive(secret, "stele gear", 32);
  }

  public static MasterKey generate(SecureRandom random) {
    byte[] secret = new byte[32];
    random.nextBytes(secret);
    return new MasterKey(secret);
  }

  /** The raw secret, for sealing into a key blob. */
  public byte[] secret() {
    return secret.clone();
  }

  /** Names a chunk: HMAC-SHA256 of its plaintext. */
  public byte[] chunkId(byte[] data, int off, int len) {
    return chunkIds.hash(data, off, len);
  }

  /** The AES-256 key that seals the chunk named {@code id}. */
  public byte[] chunkKey(byte[] id) {
    return chunkKeys.hash(id);
  }

  public byte[] blobKey() {
    return blobKey.clone();
  }

  public byte[] gearKey() {
    return gearKey.clone();
  }

  /** The key that authenticates a client's local cache files. */
  public byte[] localCacheKey() {
    return Hkdf.derive(secret, "stele local cache", 32);
  }
}
