package dev.stele.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Both Argon2id implementations give the reference implementation's test vectors (Argon2id, version
 * 0x13, from its {@code test.c}), and {@link Kdf#derive} gives the same key whichever runs.
 */
class KdfTest {
  private static final byte[] PASSWORD = ascii("password");
  private static final byte[] SALT = ascii("somesalt");

  @Test
  void theSystemLibraryLoadsOnThisMachine() {
    // libargon2-1 is installed here (.ci/run installs it); without it every test below would
    // compare BouncyCastle with itself.
    assertThat(NativeArgon2.available()).isTrue();
  }

  @Test
  void nativeArgon2GivesTheReferenceVectors() {
    assertThat(hex(NativeArgon2.derive(PASSWORD, SALT, 2, 1 << 16, 1)))
        .isEqualTo("09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7");
    assertThat(hex(NativeArgon2.derive(PASSWORD, SALT, 2, 1 << 8, 1)))
        .isEqualTo("9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe");
  }

  @Test
  void bouncyCastleGivesTheReferenceVectors() {
    assertThat(hex(Kdf.bouncyCastle(PASSWORD, SALT, 2, 1 << 16, 1)))
        .isEqualTo("09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7");
    assertThat(hex(Kdf.bouncyCastle(PASSWORD, SALT, 2, 1 << 8, 1)))
        .isEqualTo("9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe");
  }

  @Test
  void bothGiveTheSameKeyForTheDefaultParametersAndANonAsciiPassword() {
    byte[] salt = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
    KdfParams params =
        KdfParams.argon2id(KdfParams.DEFAULT_MEMORY_KIB, KdfParams.DEFAULT_ITERATIONS, salt);
    char[] password = "pässwörd ✓".toCharArray();

    byte[] derived = Kdf.derive(password, params);

    byte[] utf8 = new String(password).getBytes(StandardCharsets.UTF_8);
    assertThat(derived)
        .hasSize(32)
        .isEqualTo(NativeArgon2.derive(utf8, salt, 2, KdfParams.DEFAULT_MEMORY_KIB, 2))
        .isEqualTo(Kdf.bouncyCastle(utf8, salt, 2, KdfParams.DEFAULT_MEMORY_KIB, 2))
        .isNotEqualTo(NativeArgon2.derive(utf8, salt, 2, KdfParams.DEFAULT_MEMORY_KIB, 1));
  }

  @Test
  void anEmptyPasswordDerivesToo() {
    byte[] salt = new byte[16];
    assertThat(NativeArgon2.derive(new byte[0], salt, 1, 64, 1))
        .isEqualTo(Kdf.bouncyCastle(new byte[0], salt, 1, 64, 1));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
