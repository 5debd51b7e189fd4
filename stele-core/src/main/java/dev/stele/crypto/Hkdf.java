package dev.stele.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HKDF-SHA256 (RFC 5869), used to split the master key into independent subkeys. */
final class Hkdf {
  private Hkdf() {}

  /** HKDF-Extract then HKDF-Expand with an empty salt and the ASCII {@code info}. */
  public static byte[] derive(byte[] inputKey, String info, int length) {
    return derive(new byte[32], inputKey, info.getBytes(StandardCharsets.US_ASCII), length);
  }

  public static byte[] derive(byte[] salt, byte[] inputKey, byte[] info, int length) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(salt.length == 0 ? new byte[32] : salt, "HmacSHA256"));
      byte[] prk = mac.doFinal(inputKey);
      mac.init(new SecretKeySpec(prk, "HmacSHA256"));
      byte[] out = new byte[length];
      byte[] block = new byte[0];
      int done = 0;
      for (int counter = 1; done < length; counter++) {
        mac.update(block);
        mac.update(info);
        mac.update((byte) counter);
        block = mac.doFinal();
        int n = Math.min(block.length, length - done);
        System.arraycopy(block, 0, out, done, n);
        done += n;
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 unavailable", e);
    }
  }
}
