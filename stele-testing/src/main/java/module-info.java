/**
 * Test support for every module's tests: the blob store contract tests, in-memory and wrapping
 * stores, a clock tests can move, directory fixtures, and the architecture rules. Main code never
 * requires it.
 */
// ArchUnit and AssertJ name themselves in their manifests; they have no descriptor.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.stele.testing {
  requires transitive dev.stele.core;
  requires transitive org.junit.jupiter.api;
  requires transitive org.assertj.core;
  requires transitive com.tngtech.archunit;

  exports dev.stele.testing;
}
