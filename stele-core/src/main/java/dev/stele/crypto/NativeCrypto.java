package dev.stele.crypto;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import dev.stele.jna.ShippedJna;
import java.lang.ref.Cleaner;
import org.jspecify.annotations.Nullable;

/**
 * HMAC-SHA256, SHA-256 (and MD5, for S3's Content-MD5) and AES-256-CTR from the system's OpenSSL
 * ({@code libcrypto.so.3}, Debian's {@code libssl3}). The JDK computes the same functions, but at
 * speed only once C2 has compiled its SHA-256 and AES intrinsics: a command in a fresh JVM pays for
 * that compilation, and a command that runs without C2 (the launcher's choice for short commands)
 * hashes at a tenth of the speed. OpenSSL's are native from the first byte, and an AES key schedule
 * costs it a fraction of what the JDK's {@code Cipher.init} costs, which matters with a key per
 * chunk. Same functions, so the same bytes: {@link Aead}, {@link KeyedHash} and {@link Digests} use
 * the JDK where this library does not load (or with {@code -Dstele.crypto.java=true}).
 *
 * <p>Bytes go to the library through a per-thread native buffer of {@link #SLICE} bytes, a slice at
 * a time, so a chunk of megabytes costs no native memory of its size.
 *
 * <p>Concurrency: every call uses its thread's OpenSSL contexts and buffer. Safe for any number of
 * threads.
 */
final class NativeCrypto {
  private static final String LIBRARY = "libcrypto.so.3";
  static final int SLICE = 64 * 1024;
  private static final int DIGEST_BYTES = 32;

  // Fetched once: OpenSSL 3 looks an algorithm up in its providers, under a lock, on every use of
  // the legacy EVP_sha256() and of the one-shot HMAC(), which was a tenth of a verify's samples.
  private static final @Nullable Pointer SHA256_MD;
  private static final @Nullable Pointer MD5_MD;
  private static final @Nullable Pointer AES_256_CTR;

  /**
   * True once the library is bound and has both algorithms; false where it is missing or lacks one
   * (then the JDK computes).
   */
  private static final boolean AVAILABLE;

  static {
    boolean bound = bind();
    SHA256_MD = bound ? EVP_MD_fetch(null, "SHA256", null) : null;
    MD5_MD = bound ? EVP_MD_fetch(null, "MD5", null) : null;
    AES_256_CTR = bound ? EVP_CIPHER_fetch(null, "AES-256-CTR", null) : null;
    AVAILABLE = SHA256_MD != null && AES_256_CTR != null;
  }

  private static final Cleaner CLEANER = Cleaner.create();
  private static final ThreadLocal<Contexts> CONTEXTS = ThreadLocal.withInitial(Contexts::new);

  /**
   * A thread's native buffer and OpenSSL contexts, reused call after call (a context is re-keyed by
   * its next init) and freed once the thread and this object are gone.
   */
  private static final class Contexts {
    final Memory scratch = new Memory(SLICE);
    final Pointer hmac = HMAC_CTX_new();
    final Pointer cipher = EVP_CIPHER_CTX_new();

    Contexts() {
      check(hmac != null && cipher != null);
      Pointer h = hmac;
      Pointer c = cipher;
      CLEANER.register(
          this,
          () -> {
            HMAC_CTX_free(h);
            EVP_CIPHER_CTX_free(c);
          });
    }
  }

  private NativeCrypto() {}

  private static boolean bind() {
    if (Boolean.getBoolean("stele.crypto.java")) {
      return false; // asked for the JDK's (to compare the two)
    }
    try {
      ShippedJna.prepare();
      Native.register(NativeCrypto.class, NativeLibrary.getInstance(LIBRARY));
      return true;
    } catch (LinkageError | RuntimeException e) {
      return false;
    }
  }

  static boolean available() {
    return AVAILABLE;
  }

  /** HMAC-SHA256 under {@code key} of {@code prefix ‖ data[off, off+len)}. */
  static byte[] hmacSha256(byte[] key, byte[] prefix, byte[] data, int off, int len) {
    Contexts c = CONTEXTS.get();
    byte[] out = new byte[DIGEST_BYTES];
    check(HMAC_Init_ex(c.hmac, key, key.length, SHA256_MD, null) == 1);
    if (prefix.length + len <= SLICE) { // one update: the usual case for keys and small chunks
      c.scratch.write(0, prefix, 0, prefix.length);
      c.scratch.write(prefix.length, data, off, len);
      check(HMAC_Update(c.hmac, c.scratch, prefix.length + len) == 1);
    } else {
      update(c, prefix, 0, prefix.length);
      update(c, data, off, len);
    }
    check(HMAC_Final(c.hmac, out, null) == 1);
    return out;
  }

  private static void update(Contexts c, byte[] data, int off, int len) {
    for (int done = 0; done < len; ) {
      int n = Math.min(len - done, SLICE);
      c.scratch.write(0, data, off + done, n);
      check(HMAC_Update(c.hmac, c.scratch, n) == 1);
      done += n;
    }
  }

  /** SHA-256 of {@code data}. */
  static byte[] sha256(byte[] data) {
    byte[] out = new byte[DIGEST_BYTES];
    check(SHA256(data, data.length, out) != null);
    return out;
  }

  /**
   * AES-256-CTR under {@code key} with the initial counter block {@code iv[ivOff, ivOff+16)} over
   * {@code in[off, off+len)} into {@code out[outOff, …)}: the whole 128-bit block counts up, as the
   * JDK's {@code AES/CTR/NoPadding} does. Encryption and decryption are the same.
   */
  static void aes256Ctr(
      byte[] key, byte[] iv, int ivOff, byte[] in, int off, int len, byte[] out, int outOff) {
    byte[] counter = java.util.Arrays.copyOfRange(iv, ivOff, ivOff + 16);
    Contexts c = CONTEXTS.get();
    int[] written = new int[1];
    check(EVP_EncryptInit_ex(c.cipher, AES_256_CTR, null, key, counter) == 1);
    for (int done = 0; done < len; ) {
      int n = Math.min(len - done, SLICE);
      c.scratch.write(0, in, off + done, n);
      check(EVP_EncryptUpdate(c.cipher, c.scratch, written, c.scratch, n) == 1 && written[0] == n);
      c.scratch.read(0, out, outOff + done, n);
      done += n;
    }
  }

  /** True if {@link #digest} can make {@code algorithm} here. */
  static boolean hasDigest(String algorithm) {
    return AVAILABLE && md(algorithm) != null;
  }

  /**
   * An incremental digest in OpenSSL, for {@link NativeDigests}: {@code "SHA-256"}, or {@code
   * "MD5"}, where {@link #hasDigest} says so.
   */
  static Digest digest(String algorithm) {
    Pointer md = md(algorithm);
    if (!AVAILABLE || md == null) {
      throw new IllegalStateException("OpenSSL (" + LIBRARY + ") has no " + algorithm + " here");
    }
    return new Digest(md, null);
  }

  private static @Nullable Pointer md(String algorithm) {
    return switch (algorithm) {
      case "SHA-256" -> SHA256_MD;
      case "MD5" -> MD5_MD;
      default -> null;
    };
  }

  /**
   * One OpenSSL digest context, freed once unreachable.
   *
   * <p>Concurrency: one thread at a time, as a {@code MessageDigest}.
   */
  static final class Digest {
    private final Pointer md;
    private final Pointer ctx;
    private final int length;

    /** A context for {@code md}, begun afresh, or a copy of {@code from}'s state. */
    private Digest(Pointer md, @Nullable Digest from) {
      this.md = md;
      this.length = EVP_MD_get_size(md);
      Pointer c = EVP_MD_CTX_new();
      check(c != null);
      this.ctx = c;
      CLEANER.register(this, () -> EVP_MD_CTX_free(c));
      check(
          from == null
              ? EVP_DigestInit_ex(ctx, md, null) == 1
              : EVP_MD_CTX_copy_ex(ctx, from.ctx) == 1);
    }

    /** The digest's length in bytes. */
    int length() {
      return length;
    }

    void update(byte[] data, int off, int len) {
      Memory scratch = CONTEXTS.get().scratch;
      for (int done = 0; done < len; ) {
        int n = Math.min(len - done, SLICE);
        scratch.write(0, data, off + done, n);
        check(EVP_DigestUpdate(ctx, scratch, n) == 1);
        done += n;
      }
    }

    /** The digest of everything updated since the last, into {@code out}; then begins afresh. */
    void finish(byte[] out) {
      check(EVP_DigestFinal_ex(ctx, out, null) == 1);
      reset();
    }

    void reset() {
      check(EVP_DigestInit_ex(ctx, md, null) == 1);
    }

    Digest copy() {
      return new Digest(md, this);
    }
  }

  private static void check(boolean ok) {
    if (!ok) {
      throw new IllegalStateException("OpenSSL (" + LIBRARY + ") refused a call");
    }
  }

  // The C functions, bound by JNA's direct mapping. int is C's int; size_t is 64 bits on the Linux
  // systems Stele runs on (x86_64, aarch64). The HMAC_* and SHA256 functions are deprecated in
  // OpenSSL 3, not removed: they stay in its ABI for the 3.x series.

  // EVP_MD *EVP_MD_fetch(OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties)
  private static native Pointer EVP_MD_fetch(
      @Nullable Pointer libctx, String algorithm, @Nullable String properties);

  private static native Pointer EVP_CIPHER_fetch(
      @Nullable Pointer libctx, String algorithm, @Nullable String properties);

  private static native Pointer HMAC_CTX_new();

  private static native void HMAC_CTX_free(Pointer ctx);

  private static native int HMAC_Init_ex(
      Pointer ctx, byte[] key, int keyLen, @Nullable Pointer md, @Nullable Pointer engine);

  private static native int HMAC_Update(Pointer ctx, Pointer data, long len);

  private static native int HMAC_Final(Pointer ctx, byte[] out, @Nullable Pointer outLen);

  // unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md)
  private static native Pointer SHA256(byte[] data, long n, byte[] out);

  private static native int EVP_MD_get_size(Pointer md);

  private static native Pointer EVP_MD_CTX_new();

  private static native void EVP_MD_CTX_free(Pointer ctx);

  private static native int EVP_MD_CTX_copy_ex(Pointer out, Pointer in);

  private static native int EVP_DigestInit_ex(Pointer ctx, Pointer md, @Nullable Pointer engine);

  private static native int EVP_DigestUpdate(Pointer ctx, Pointer data, long len);

  private static native int EVP_DigestFinal_ex(Pointer ctx, byte[] out, @Nullable Pointer outLen);

  private static native Pointer EVP_CIPHER_CTX_new();

  private static native void EVP_CIPHER_CTX_free(Pointer ctx);

  private static native int EVP_EncryptInit_ex(
      Pointer ctx, @Nullable Pointer cipher, @Nullable Pointer engine, byte[] key, byte[] iv);

  private static native int EVP_EncryptUpdate(
      Pointer ctx, Pointer out, int[] outLen, Pointer in, int inLen);
}
