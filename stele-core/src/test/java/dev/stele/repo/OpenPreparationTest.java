package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The preparation drops its failures (the open reports them), so nothing else would notice one that
 * stopped at its first step and prepared nothing.
 */
class OpenPreparationTest {

  @Test
  void everyStepRunsToTheEnd() {
    assertThat(OpenPreparation.run()).isNull();
  }
}
