package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The store's own HMAC-SHA256 against RFC 4231 and against the JDK's {@link Mac}. */
class HashesTest {
  private static String hmac(byte[] key, String text) {
    return HexFormat.of().formatHex(Hashes.hmacSha256(key, text));
  }

  @Test
  void rfc4231ShortKey() {
    assertThat(hmac("Jefe".getBytes(StandardCharsets.US_ASCII), "what do ya want for nothing?"))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void rfc4231KeyLongerThanABlockIsHashedFirst() {
    byte[] key = new byte[131];
    Arrays.fill(key, (byte) 0xaa);
    assertThat(hmac(key, "Test Using Larger Than Block-Size Key - Hash Key First"))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }

  @Test
  void theSameAsTheJdksForKeysOfEveryLengthAroundABlock() throws Exception {
    Random random = new Random(4231);
    for (int length = 1; length <= 130; length++) {
      byte[] key = new byte[length];
      random.nextBytes(key);
      String text = "text " + length + " ümlaut";
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      assertThat(hmac(key, text))
          .as("key of %d bytes", length)
          .isEqualTo(HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8))));
    }
  }
}
