/**
 * Test support for every module's tests: the blob store contract tests, in-memory and wrapping
 * stores, a clock tests can move, and directory fixtures. Main code never requires
 * it.
 */
module dev.stele.testing {
  requires transitive dev.stele.core;
  requires transitive org.junit.jupiter.api;
  requires transitive org.assertj.core;

  exports dev.stele.testing;
}
