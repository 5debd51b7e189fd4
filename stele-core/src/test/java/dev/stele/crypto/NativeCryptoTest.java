package dev.stele.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * OpenSSL's HMAC-SHA256, SHA-256 and AES-256-CTR give the JDK's bytes, at every length around the
 * slice the native buffer holds, from any offset, and across a carry through the whole counter.
 */
class NativeCryptoTest {
  private static final int S = NativeCrypto.SLICE;
  private static final int[] LENGTHS = {0, 1, 31, 4096, S - 40, S - 1, S, S + 1, 3 * S + 17};
  private final Random random = new Random(12);

  @Test
  void theSystemLibraryLoadsOnThisMachine() {
    // libcrypto.so.3 (libssl3) is installed here (.ci/run installs it); without it the Aead and
    // KeyedHash tests would only test the JDK's path.
    assertThat(NativeCrypto.available()).isTrue();
  }

  @Test
  void hmacIsTheJdksWithAndWithoutAPrefix() throws Exception {
    byte[] key = bytes(32);
    for (int len : LENGTHS) {
      for (byte[] prefix : new byte[][] {new byte[0], bytes(40)}) {
        byte[] data = bytes(len + 13);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update(prefix);
        mac.update(data, 7, len);
        assertThat(NativeCrypto.hmacSha256(key, prefix, data, 7, len))
            .as("length %d, prefix %d", len, prefix.length)
            .isEqualTo(mac.doFinal());
      }
    }
  }

  @Test
  void sha256IsTheJdks() throws Exception {
    for (int len : LENGTHS) {
      byte[] data = bytes(len);
      assertThat(NativeCrypto.sha256(data))
          .isEqualTo(MessageDigest.getInstance("SHA-256").digest(data));
    }
  }

  @Test
  void aesCtrIsTheJdksFromAnyOffset() throws Exception {
    byte[] key = bytes(32);
    for (int len : LENGTHS) {
      byte[] iv = bytes(20);
      byte[] in = bytes(len + 9);
      byte[] out = new byte[len + 5];
      NativeCrypto.aes256Ctr(key, iv, 3, in, 9, len, out, 5);
      assertThat(Arrays.copyOfRange(out, 5, 5 + len))
          .as("length %d", len)
          .isEqualTo(jdkCtr(key, Arrays.copyOfRange(iv, 3, 19), in, 9, len));
    }
  }

  @Test
  void theCounterCarriesThroughAllSixteenBytes() throws Exception {
    byte[] key = bytes(32);
    byte[] iv = new byte[16];
    Arrays.fill(iv, 1, 16, (byte) 0xff); // the low 120 bits roll over after the first block
    byte[] in = bytes(4 * 16);
    byte[] out = new byte[in.length];
    NativeCrypto.aes256Ctr(key, iv, 0, in, 0, in.length, out, 0);
    assertThat(out).isEqualTo(jdkCtr(key, iv, in, 0, in.length));
  }

  @Test
  void decryptingIsEncryptingAgain() {
    byte[] key = bytes(32);
    byte[] iv = bytes(16);
    byte[] plain = bytes(S + 100);
    byte[] sealed = new byte[plain.length];
    byte[] opened = new byte[plain.length];
    NativeCrypto.aes256Ctr(key, iv, 0, plain, 0, plain.length, sealed, 0);
    NativeCrypto.aes256Ctr(key, iv, 0, sealed, 0, sealed.length, opened, 0);
    assertThat(sealed).isNotEqualTo(plain);
    assertThat(opened).isEqualTo(plain);
  }

  @Test
  void aeadsJdkPathGivesTheSameBytes() {
    // What Aead computes where libcrypto does not load: the same tags and ciphertext.
    byte[] key = bytes(32);
    byte[] prefix = bytes(36);
    for (int len : LENGTHS) {
      byte[] data = bytes(len + 11);
      assertThat(Aead.jdkHmac(key, prefix, data, 11, len))
          .isEqualTo(NativeCrypto.hmacSha256(key, prefix, data, 11, len));
      byte[] iv = bytes(16);
      byte[] viaJdk = new byte[len];
      byte[] viaOpenSsl = new byte[len];
      Aead.jdkCtr(key, iv, 0, data, 11, len, viaJdk, 0);
      NativeCrypto.aes256Ctr(key, iv, 0, data, 11, len, viaOpenSsl, 0);
      assertThat(viaJdk).as("length %d", len).isEqualTo(viaOpenSsl);
    }
  }

  private static byte[] jdkCtr(byte[] key, byte[] iv, byte[] in, int off, int len)
      throws Exception {
    Cipher cipher = Cipher.getInstance("AES/CTR/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    return cipher.doFinal(in, off, len);
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
