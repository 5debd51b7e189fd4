package dev.stele.crypto;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import dev.stele.jna.ShippedJna;
import org.jspecify.annotations.Nullable;

/**
 * Argon2id from the reference implementation, {@code libargon2.so.1} (Debian's {@code libargon2-1},
 * which cryptsetup and systemd depend on): in a fresh JVM it runs the default parameters in tens of
 * milliseconds, where BouncyCastle's, not yet compiled, takes a quarter of a second. The same
 * function, so the same bytes: {@link Kdf} uses whichever loads.
 *
 * <p>The password goes to the library through native memory that is zeroed after the call.
 */
final class NativeArgon2 {
  private static final String LIBRARY = "libargon2.so.1";

  /** True once the library is bound; false where it is missing (then BouncyCastle derives). */
  private static final boolean AVAILABLE = bind();

  private NativeArgon2() {}

  private static boolean bind() {
    if (Boolean.getBoolean("stele.kdf.java")) {
      return false; // asked for BouncyCastle (to compare the two)
    }
    try {
      ShippedJna.prepare();
      Native.register(NativeArgon2.class, NativeLibrary.getInstance(LIBRARY));
      return true;
    } catch (LinkageError | RuntimeException e) {
      return false;
    }
  }

  static boolean available() {
    return AVAILABLE;
  }

  /**
   * The 32-byte Argon2id (version 0x13) of {@code password}, or null if the library is not there or
   * refused (BouncyCastle then derives the same bytes).
   */
  static byte @Nullable [] derive(
      byte[] password, byte[] salt, int iterations, int memoryKiB, int parallelism) {
    if (!AVAILABLE) {
      return null;
    }
    // Memory of size 0 is refused; an empty password still needs a valid pointer.
    Memory pw = new Memory(Math.max(1, password.length));
    Memory out = new Memory(32);
    try {
      pw.write(0, password, 0, password.length);
      int rc =
          argon2id_hash_raw(
              iterations, memoryKiB, parallelism, pw, password.length, salt, salt.length, out, 32);
      return rc == 0 ? out.getByteArray(0, 32) : null;
    } finally {
      pw.clear();
      out.clear();
      pw.close();
      out.close();
    }
  }

  // int argon2id_hash_raw(uint32_t t_cost, uint32_t m_cost, uint32_t parallelism,
  //     const void *pwd, size_t pwdlen, const void *salt, size_t saltlen,
  //     void *hash, size_t hashlen): 0 on success. size_t is 64 bits on the Linux systems Stele
  // runs on (x86_64, aarch64).
  @SuppressWarnings("MethodName") // the C function's own name
  private static native int argon2id_hash_raw(
      int tCost,
      int mCost,
      int parallelism,
      Pointer pwd,
      long pwdLen,
      byte[] salt,
      long saltLen,
      Pointer hash,
      long hashLen);
}
