package dev.stele.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChunkerParamsTest {
  @Test
  void defaultIsQuarterOneAndFourMebibytes() {
    assertThat(ChunkerParams.DEFAULT).isEqualTo(new ChunkerParams(262_144, 1_048_576, 4_194_304));
  }

  @Test
  void minAndMaxNeedNotBePowersOfTwo() {
    ChunkerParams p = new ChunkerParams(3000, 4096, 10_000);
    assertThat(p.avgSize()).isEqualTo(4096);
  }

  @Test
  void averageThatIsNotAPowerOfTwoIsRejected() {
    assertThatThrownBy(() -> new ChunkerParams(1000, 3000, 9000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
  }

  @Test
  void sizesOutOfOrderAreRejected() {
    assertThatThrownBy(() -> new ChunkerParams(4096, 4096, 8192))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChunkerParams(1024, 4096, 4096))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChunkerParams(8192, 4096, 2048))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void maximumAbove64MebibytesIsRejected() {
    assertThat(new ChunkerParams(1 << 20, 16 << 20, 64 << 20).maxSize()).isEqualTo(64 << 20);
    assertThatThrownBy(() -> new ChunkerParams(1 << 20, 16 << 20, (64 << 20) + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 MiB");
  }

  @Test
  void minimumBelowTheHashWindowIsRejected() {
    assertThatThrownBy(() -> new ChunkerParams(63, 128, 256))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChunkerParams(-1, 128, 256))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
