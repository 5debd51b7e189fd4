package dev.stele.k8s.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpellingsTest {
  @Test
  void aSpecMaySpellAModeAsTheOperatorPrintsIt() {
    assertThat(LockMode.of("compliance")).contains(LockMode.COMPLIANCE);
    assertThat(LockMode.of("Compliance")).contains(LockMode.COMPLIANCE);
    assertThat(LockMode.of("GOVERNANCE")).contains(LockMode.GOVERNANCE);
    assertThat(AccessMode.of("readonly")).contains(AccessMode.READ_ONLY);
  }

  @Test
  void anUnknownOrMissingSpellingIsNone() {
    assertThat(LockMode.of("complete")).isEmpty();
    assertThat(LockMode.of(null)).isEmpty();
  }
}
