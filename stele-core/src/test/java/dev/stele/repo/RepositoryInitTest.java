package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The choices of a new repository are checked where they are made, for every caller. */
class RepositoryInitTest {

  @Test
  void compressionLevelsOutsideZstdsRangeAreRefused() {
    RepositoryInit init = RepositoryInit.defaults(Clock.systemUTC());

    assertThat(init.withCompressionLevel(0).compressionLevel()).isZero();
    assertThat(init.withCompressionLevel(RepositoryInit.MAX_COMPRESSION_LEVEL).compressionLevel())
        .isEqualTo(22);
    assertThatThrownBy(() -> init.withCompressionLevel(23))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("23 is not a zstd level: use 0 (none) to 22");
    assertThatThrownBy(() -> init.withCompressionLevel(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
