package dev.stele.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticated encryption: AES-256-CTR, then HMAC-SHA256 over the associated data, the IV and the
 * ciphertext (encrypt-then-MAC). A sealed message is {@code iv[16] ‖ ciphertext ‖ tag[32]}.
 *
 * <p>From one 32-byte key {@code K}: the AES key is {@code HMAC-SHA256(K, "enc")}, the MAC key
 * {@code HMAC-SHA256(K, "mac")}. The tag is {@code HMAC-SHA256(macKey, be32(len(aad)) ‖ aad ‖ iv ‖
 * ciphertext)}.
 *
 * <p>Why not AES-GCM: every Stele command runs in a fresh JVM, and there JDK 17's GCM runs at 60–70
 * MiB/s until C2 compiles its GHASH intrinsic — after about 600 one-MiB calls, and decryption
 * cannot be sliced to get there sooner. AES-CTR (encrypted in slices, see {@code sliced}) and
 * SHA-256 reach their intrinsics soon: 265 MiB/s against 61 for the first 150 MiB of one-MiB chunks
 * in a cold JVM on the project machine (see docs/performance.md). Warm, GCM is faster, but the CLI
 * never runs warm.
 *
 * <p>Where OpenSSL's libcrypto loads, it computes both ({@link NativeCrypto}), natively from the
 * first byte; else the JDK does. The bytes are the same.
 *
 * <p>Concurrency: stateless; per-thread contexts. Safe for any number of threads.
 */
public final class Aead {
  /** Where {@link #sealInPlace} expects the plaintext: after the room for the IV. */
  public static final int IV_BYTES = 16;

  static final int TAG_BYTES = 32;
  public static final int OVERHEAD = IV_BYTES + TAG_BYTES;
  private static final int SLICE = 16 * 1024;
  private static final byte[] ENC = "enc".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MAC = "mac".getBytes(StandardCharsets.US_ASCII);
  static final byte[] NO_PREFIX = new byte[0];
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(Aead::newCipher);
  private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(Aead::newMac);

  private Aead() {}

  /** Seals {@code plaintext[off, off+len)} into a new array of {@code len + OVERHEAD} bytes. */
  public static byte[] seal(byte[] key, byte[] aad, byte[] plaintext, int off, int len) {
    byte[] out = new byte[len + OVERHEAD];
    System.arraycopy(plaintext, off, out, IV_BYTES, len);
    sealInPlace(key, aad, out, len);
    return out;
  }

  /**
   * Seals in place: {@code buf[IV_BYTES, IV_BYTES+len)} holds the plaintext, and on return {@code
   * buf[0, len+OVERHEAD)} is the sealed message, whose length is returned. {@code buf} must hold
   * that many bytes. For a writer that builds each message in a buffer it reuses.
   */
  public static int sealInPlace(byte[] key, byte[] aad, byte[] buf, int len) {
    byte[] iv = new byte[IV_BYTES];
    RANDOM.nextBytes(iv);
    System.arraycopy(iv, 0, buf, 0, IV_BYTES);
    Subkeys subkeys = subkeys(key);
    ctr(subkeys.enc, iv, 0, buf, IV_BYTES, len, buf, IV_BYTES);
    byte[] tag = tag(subkeys.mac, aad, buf, 0, IV_BYTES + len);
    System.arraycopy(tag, 0, buf, IV_BYTES + len, TAG_BYTES);
    return len + OVERHEAD;
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
    byte[] out = new byte[Math.max(0, len - OVERHEAD)];
    open(key, aad, sealed, off, len, out);
    return out;
  }

  /**
   * Opens {@code sealed[off, off+len)} into {@code out}, which must hold at least {@code len -
   * OVERHEAD} bytes; returns that length. For a reader that checks many messages and keeps none.
   *
   * @throws AEADBadTagException if the message was not sealed with this key and aad, or was altered
   */
  public static int open(byte[] key, byte[] aad, byte[] sealed, int off, int len, byte[] out)
      throws AEADBadTagException {
    return open(key, aad, sealed, off, len, out, 0);
  }

  /**
   * Opens {@code buf[off, off+len)} where it lies: on return the plaintext is in {@code buf[off +
   * IV_BYTES, off + IV_BYTES + n)}, n returned, and the ciphertext is gone. For a reader whose
   * buffer holds each message once and keeps nothing, so that it needs no second buffer of the
   * message's size. On a failed tag nothing is decrypted.
   *
   * @throws AEADBadTagException as {@link #open(byte[], byte[], byte[], int, int, byte[])}
   */
  public static int openInPlace(byte[] key, byte[] aad, byte[] buf, int off, int len)
      throws AEADBadTagException {
    return open(key, aad, buf, off, len, buf, off + IV_BYTES);
  }

  private static int open(
      byte[] key, byte[] aad, byte[] sealed, int off, int len, byte[] out, int outOff)
      throws AEADBadTagException {
    if (len < OVERHEAD) {
      throw new AEADBadTagException("sealed message too short: " + len + " bytes");
    }
    int body = len - TAG_BYTES;
    Subkeys subkeys = subkeys(key);
    byte[] expected = tag(subkeys.mac, aad, sealed, off, body);
    if (!MessageDigest.isEqual(
        expected, java.util.Arrays.copyOfRange(sealed, off + body, off + len))) {
      throw new AEADBadTagException("authentication tag mismatch");
    }
    int n = body - IV_BYTES;
    ctr(subkeys.enc, sealed, off, sealed, off + IV_BYTES, n, out, outOff);
    return n;
  }

  public static byte[] open(byte[] key, byte[] aad, byte[] sealed) throws AEADBadTagException {
    return open(key, aad, sealed, 0, sealed.length);
  }

  /**
   * AES-256-CTR under {@code encKey} from the counter block {@code iv[ivOff, ivOff+16)} over {@code
   * in[off, off+len)} into {@code out}: OpenSSL's where it loads ({@link NativeCrypto}), else the
   * JDK's. Encrypting and decrypting are the same operation.
   */
  private static void ctr(
      byte[] encKey, byte[] iv, int ivOff, byte[] in, int off, int len, byte[] out, int outOff) {
    if (NativeCrypto.available()) {
      NativeCrypto.aes256Ctr(encKey, iv, ivOff, in, off, len, out, outOff);
    } else {
      jdkCtr(encKey, iv, ivOff, in, off, len, out, outOff);
    }
  }

  /** {@link #ctr} with the JDK's AES-CTR. */
  static void jdkCtr(
      byte[] encKey, byte[] iv, int ivOff, byte[] in, int off, int len, byte[] out, int outOff) {
    try {
      Cipher cipher = CIPHERS.get();
      cipher.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(encKey, "AES"),
          new IvParameterSpec(iv, ivOff, IV_BYTES));
      sliced(cipher, in, off, len, out, outOff);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR failed", e);
    }
  }

  /**
   * Runs {@code cipher} over {@code in[off, off+len)} into {@code out} in slices of {@link #SLICE}
   * bytes. JDK 17 reaches its AES-CTR intrinsic only in code where C2 has compiled {@code
   * CounterMode.crypt}, which runs once per call; until then each 16-byte block goes through {@code
   * AESCrypt.encryptBlock}, at a few hundred MiB/s. With one call per chunk, a cold backup on a
   * busy machine stayed in that path for most of its run (issue 12's profiles); slices get there
   * within the first megabytes. The output is the same single CTR stream.
   */
  private static void sliced(Cipher cipher, byte[] in, int off, int len, byte[] out, int outOff)
      throws GeneralSecurityException {
    int done = 0;
    while (len - done > SLICE) {
      done += cipher.update(in, off + done, SLICE, out, outOff + done);
    }
    cipher.doFinal(in, off + done, len - done, out, outOff + done);
  }

  /**
   * The tag: HMAC-SHA256 under {@code macKey} of {@code be32(len(aad)) ‖ aad ‖ buf[off, off+len)}.
   */
  private static byte[] tag(byte[] macKey, byte[] aad, byte[] buf, int off, int len) {
    byte[] prefix = ByteBuffer.allocate(4 + aad.length).putInt(aad.length).put(aad).array();
    return hmac(macKey, prefix, buf, off, len);
  }

  /**
   * HMAC-SHA256 under {@code key} of {@code prefix ‖ data[off, off+len)}: OpenSSL's where it loads,
   * else the JDK's.
   */
  static byte[] hmac(byte[] key, byte[] prefix, byte[] data, int off, int len) {
    return NativeCrypto.available()
        ? NativeCrypto.hmacSha256(key, prefix, data, off, len)
        : jdkHmac(key, prefix, data, off, len);
  }

  /** {@link #hmac} with the JDK's HMAC-SHA256. */
  static byte[] jdkHmac(byte[] key, byte[] prefix, byte[] data, int off, int len) {
    try {
      Mac mac = MACS.get();
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update(prefix);
      mac.update(data, off, len);
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 failed", e);
    }
  }

  /** The AES key and the MAC key of one message key (never compared: equals is identity here). */
  @SuppressWarnings("ArrayRecordComponent")
  private record Subkeys(byte[] enc, byte[] mac) {}

  /** Both subkeys of a message key. A chunk has a key of its own, so this runs once per chunk. */
  private static Subkeys subkeys(byte[] key) {
    return new Subkeys(
        hmac(key, NO_PREFIX, ENC, 0, ENC.length), hmac(key, NO_PREFIX, MAC, 0, MAC.length));
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR unavailable", e);
    }
  }

  private static Mac newMac() {
    try {
      return Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 unavailable", e);
    }
  }
}
