package dev.stele.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class AeadTest {
  private final byte[] key = new byte[32];
  private final byte[] aad = "aad".getBytes(StandardCharsets.US_ASCII);

  AeadTest() {
    new Random(1).nextBytes(key);
  }

  /**
   * Aead encrypts in slices; the format is one AES-CTR stream over the whole message. Sizes around
   * and across the slice length must give exactly what one CTR pass over the message gives.
   */
  @Test
  void messagesOfEverySliceCountAreOneCtrStream() throws Exception {
    for (int len : new int[] {0, 1, 16383, 16384, 16385, 3 * 16384 + 7, 1 << 20}) {
      byte[] plaintext = new byte[len];
      new Random(len).nextBytes(plaintext);
      byte[] sealed = Aead.seal(key, aad, plaintext);

      assertThat(oneCtrPass(sealed)).as("length %d", len).isEqualTo(plaintext);
      assertThat(Aead.open(key, aad, sealed)).as("length %d", len).isEqualTo(plaintext);
    }
  }

  @Test
  void openingInPlaceLeavesThePlaintextWhereTheCiphertextWasAndNothingElseTouched()
      throws Exception {
    for (int len : new int[] {0, 1, 16385, 1 << 20}) {
      byte[] plaintext = new byte[len];
      new Random(len).nextBytes(plaintext);
      byte[] sealed = Aead.seal(key, aad, plaintext);
      byte[] buf = new byte[5 + sealed.length + 5];
      Arrays.fill(buf, (byte) 7);
      System.arraycopy(sealed, 0, buf, 5, sealed.length);

      int n = Aead.openInPlace(key, aad, buf, 5, sealed.length);

      int from = 5 + Aead.IV_BYTES;
      assertThat(n).isEqualTo(len);
      assertThat(Arrays.copyOfRange(buf, from, from + n)).as("length %d", len).isEqualTo(plaintext);
      assertThat(Arrays.copyOfRange(buf, 0, 5)).containsOnly(7);
      assertThat(Arrays.copyOfRange(buf, 5 + sealed.length, buf.length)).containsOnly(7);
    }
  }

  @Test
  void theJdksCtrGivesTheSameStreamInPlace() {
    byte[] encKey = Arrays.copyOf(key, 32);
    byte[] iv = new byte[Aead.IV_BYTES];
    byte[] data = new byte[3 * 16384 + 7];
    new Random(3).nextBytes(data);
    byte[] apart = new byte[data.length];
    Aead.jdkCtr(encKey, iv, 0, data, 0, data.length, apart, 0);

    byte[] buf = data.clone();
    Aead.jdkCtr(encKey, iv, 0, buf, 0, buf.length, buf, 0);

    assertThat(buf).isEqualTo(apart);
  }

  @Test
  void aMessageThatFailsItsTagIsNotOpenedInPlace() {
    byte[] sealed = Aead.seal(key, aad, new byte[1000]);
    sealed[Aead.IV_BYTES + 10] ^= 1;
    byte[] before = sealed.clone();

    assertThatThrownBy(() -> Aead.openInPlace(key, aad, sealed, 0, sealed.length))
        .isInstanceOf(AEADBadTagException.class);
    assertThat(sealed).isEqualTo(before);
  }

  @Test
  void anAlteredByteAfterTheFirstSliceFailsToOpen() {
    byte[] sealed = Aead.seal(key, aad, new byte[100_000]);
    sealed[Aead.IV_BYTES + 50_000] ^= 1;

    assertThatThrownBy(() -> Aead.open(key, aad, sealed)).isInstanceOf(AEADBadTagException.class);
  }

  /** The tag is HMAC-SHA256(HMAC-SHA256(K, "mac"), be32(len(aad)) ‖ aad ‖ iv ‖ ciphertext). */
  @Test
  void theTagFollowsTheDocumentedKeySchedule() throws Exception {
    byte[] sealed = Aead.seal(key, aad, new byte[1000]);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] macKey = mac.doFinal("mac".getBytes(StandardCharsets.US_ASCII));
    mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
    mac.update(new byte[] {0, 0, 0, (byte) aad.length});
    mac.update(aad);
    mac.update(sealed, 0, sealed.length - Aead.TAG_BYTES);
    assertThat(Arrays.copyOfRange(sealed, sealed.length - Aead.TAG_BYTES, sealed.length))
        .isEqualTo(mac.doFinal());
  }

  /** Decrypts {@code iv ‖ ciphertext ‖ tag} with one doFinal, from the documented key schedule. */
  private byte[] oneCtrPass(byte[] sealed) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] encKey = mac.doFinal("enc".getBytes(StandardCharsets.US_ASCII));
    Cipher cipher = Cipher.getInstance("AES/CTR/NoPadding");
    cipher.init(
        Cipher.DECRYPT_MODE,
        new SecretKeySpec(encKey, "AES"),
        new IvParameterSpec(sealed, 0, Aead.IV_BYTES));
    return cipher.doFinal(
        Arrays.copyOfRange(sealed, Aead.IV_BYTES, sealed.length - Aead.TAG_BYTES));
  }
}
