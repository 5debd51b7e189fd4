/**
 * Test support for every module: the blob store contract test, an in-memory store, and decorators
 * that audit calls, inject faults or refuse creates (each passing the contract itself), a clock
 * tests can move, {@link Await} for tests that wait on another thread or process, directory
 * fixtures ({@link RandomTree} writes seeded trees, {@link TreeAssert} compares two trees with
 * their metadata), and the architecture rules every module's tests hold its packages to ({@link
 * ArchitectureRules}).
 *
 * <p>Production code must never depend on this package; it depends only on the SPI in {@code
 * dev.stele.blob}, never on the repository, snapshot or Kubernetes layers, so every module's tests
 * can use it.
 */
package dev.stele.testing;
