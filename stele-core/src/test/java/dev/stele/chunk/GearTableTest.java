package dev.stele.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class GearTableTest {
  /**
   * Independently computed with {@code openssl enc -aes-256-ecb -nopad -K 000102...1f} over the
   * counter blocks 0, 1 and 127.
   */
  @Test
  void tableIsTheAesCounterStreamOfTheKey() {
    GearTable g = GearTable.fromKey(TestData.key(0));
    assertThat(g.get(0)).isEqualTo(0xf29000b62a499fd0L);
    assertThat(g.get(1)).isEqualTo(0xa9f39a6add2e7780L);
    assertThat(g.get(2)).isEqualTo(0xf05d76ae4ab99fe5L);
    assertThat(g.get(3)).isEqualTo(0xa6f69b3148c2363dL);
    assertThat(g.get(254)).isEqualTo(0xfc6ade44ca59894dL);
    assertThat(g.get(255)).isEqualTo(0x1c7bc5b6f9f8e399L);
  }

  @Test
  void sameKeyGivesSameTableAndOtherKeyAnother() {
    long[] a = GearTable.fromKey(TestData.key(0)).toArray();
    long[] b = GearTable.fromKey(TestData.key(0)).toArray();
    long[] c = GearTable.fromKey(TestData.key(1)).toArray();
    assertThat(a).isEqualTo(b);
    assertThat(Arrays.equals(a, c)).isFalse();
    assertThat(Arrays.stream(a).distinct().count()).isEqualTo(256);
  }

  @Test
  void keyOfWrongLengthIsRejected() {
    assertThatThrownBy(() -> GearTable.fromKey(new byte[16]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes");
    assertThatThrownBy(() -> GearTable.fromKey(null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toStringDoesNotRevealTheValues() {
    GearTable g = GearTable.fromKey(TestData.key(0));
    assertThat(g.toString())
        .doesNotContainIgnoringCase(Long.toHexString(g.get(0)))
        .doesNotContain(Long.toString(g.get(0)));
  }
}
