package dev.stele.crypto;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM with a random 96-bit nonce. A sealed message is {@code nonce(12) ‖ ciphertext ‖
 * tag(16)}.
 *
 * <p>Encryption feeds the cipher in {@value #SLICE}-byte slices: a fresh JVM runs GCM at about 70
 * MiB/s until C2 compiles its intrinsics, and many small calls get it compiled within the first few
 * MiB instead of the first 600 (see docs/performance.md).
 *
 * <p>Concurrency: stateless; each call uses its own {@link Cipher}. Safe for any number of threads.
 */
public final class Aead {
  public static final int NONCE_BYTES = 12;
  public static final int TAG_BYTES = 16;
  public static final int OVERHEAD = NONCE_BYTES + TAG_BYTES;
  private static final int SLICE = 4 * 1024;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(Aead::newCipher);

  private Aead() {}

  /** Seals {@code plaintext[off, off+len)} into a new array of {@code len + OVERHEAD} bytes. */
  public static byte[] seal(byte[] key, byte[] aad, byte[] plaintext, int off, int len) {
    byte[] out = new byte[len + OVERHEAD];
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
    try {
      Cipher cipher = CIPHERS.get();
      cipher.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BYTES * 8, nonce));
      cipher.updateAAD(aad);
      int written = NONCE_BYTES;
      for (int pos = 0; pos < len; pos += SLICE) {
        written += cipher.update(plaintext, off + pos, Math.min(SLICE, len - pos), out, written);
      }
      cipher.doFinal(out, written);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM encryption failed", e);
    }
  }

  public static byte[] seal(byte[] key, byte[] aad, byte[] plaintext) {
    return seal(key, aad, plaintext, 0, plaintext.length);
  }

  /**
   * Opens {@code sealed[off, off+len)}.
   *
   * @throws AEADBadTagException if the message was not sealed with this key and aad, or was altered
   */
  public static byte[] open(byte[] key, byte[] aad, byte[] sealed, int off, int len)
      throws AEADBadTagException {
    if (len < OVERHEAD) {
      throw new AEADBadTagException("sealed message too short: " + len + " bytes");
    }
    try {
      Cipher cipher = CIPHERS.get();
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BYTES * 8, sealed, off, NONCE_BYTES));
      cipher.updateAAD(aad);
      return cipher.doFinal(sealed, off + NONCE_BYTES, len - NONCE_BYTES);
    } catch (AEADBadTagException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM decryption failed", e);
    }
  }

  public static byte[] open(byte[] key, byte[] aad, byte[] sealed) throws AEADBadTagException {
    return open(key, aad, sealed, 0, sealed.length);
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM unavailable", e);
    }
  }
}
