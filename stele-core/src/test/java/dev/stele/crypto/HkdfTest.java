package dev.stele.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** HKDF-SHA256 gives RFC 5869's test vectors (its appendix A, cases 1 and 3). */
class HkdfTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] IKM = HEX.parseHex("0b".repeat(22));

  @Test
  void saltAndInfo() {
    byte[] okm =
        Hkdf.derive(
            HEX.parseHex("000102030405060708090a0b0c"),
            IKM,
            HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"),
            42);
    assertThat(HEX.formatHex(okm))
        .isEqualTo(
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
  }

  @Test
  void emptySaltAndInfo() {
    assertThat(HEX.formatHex(Hkdf.derive(new byte[0], IKM, new byte[0], 42)))
        .isEqualTo(
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
    assertThat(Hkdf.derive(IKM, "", 42)).isEqualTo(Hkdf.derive(new byte[0], IKM, new byte[0], 42));
  }
}
