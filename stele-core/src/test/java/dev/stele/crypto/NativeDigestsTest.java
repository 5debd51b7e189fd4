package dev.stele.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Once installed, {@code MessageDigest.getInstance} gives OpenSSL's SHA-256 and MD5, and they give
 * the JDK's own bytes however the input is fed, copied or reset.
 */
class NativeDigestsTest {
  private static final int S = NativeCrypto.SLICE;
  private static final int[] LENGTHS = {0, 1, 55, 64, 4096, S - 1, S, S + 1, 3 * S + 17};
  private final Random random = new Random(7);

  @ParameterizedTest
  @ValueSource(strings = {"SHA-256", "MD5"})
  void theInstalledDigestIsOpenSslsAndGivesTheJdksBytes(String algorithm) throws Exception {
    assertThat(NativeDigests.install()).isTrue();
    assertThat(NativeDigests.install()).isTrue(); // a second call changes nothing
    MessageDigest installed = MessageDigest.getInstance(algorithm);
    assertThat(installed.getProvider().getName()).isEqualTo("SteleOpenSSLDigests");
    MessageDigest jdk = MessageDigest.getInstance(algorithm, "SUN");
    assertThat(installed.getDigestLength()).isEqualTo(jdk.getDigestLength());

    for (int len : LENGTHS) {
      byte[] data = new byte[len + 9];
      random.nextBytes(data);
      installed.update(data, 9, len);
      jdk.update(data, 9, len);
      // A digest resets the context: the next one starts from nothing.
      assertThat(installed.digest()).as("length %d", len).isEqualTo(jdk.digest());
      assertThat(installed.digest()).isEqualTo(jdk.digest());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"SHA-256", "MD5"})
  void bytesBuffersClonesAndResetsMatchTheJdk(String algorithm) throws Exception {
    NativeDigests.install();
    MessageDigest installed = MessageDigest.getInstance(algorithm);
    MessageDigest jdk = MessageDigest.getInstance(algorithm, "SUN");
    byte[] data = new byte[2 * S + 5];
    random.nextBytes(data);

    installed.update((byte) 1);
    installed.update((byte) 2);
    installed.update(ByteBuffer.allocateDirect(data.length).put(data).flip());
    jdk.update(new byte[] {1, 2});
    jdk.update(data);
    // A copy carries the state so far and goes on on its own.
    MessageDigest copy = (MessageDigest) installed.clone();
    installed.update(data, 0, 10);
    MessageDigest jdkCopy = (MessageDigest) jdk.clone();
    jdk.update(data, 0, 10);
    assertThat(copy.digest()).isEqualTo(jdkCopy.digest());
    assertThat(installed.digest()).isEqualTo(jdk.digest());

    installed.update(data);
    installed.reset();
    assertThat(installed.digest(data)).isEqualTo(jdk.digest(data));
  }
}
