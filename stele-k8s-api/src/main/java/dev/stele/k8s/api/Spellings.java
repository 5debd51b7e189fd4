package dev.stele.k8s.api;

import java.util.Arrays;
import java.util.Optional;

/**
 * Reads an enum back from the spelling a resource, label or document carries, in any case: a spec
 * may say {@code compliance} as the operator prints it, or {@code Compliance} as the CRD documents
 * it (no two constants of an enum differ only in case).
 */
final class Spellings {
  private Spellings() {}

  /**
   * The constant whose {@code toString()} is {@code spelling}, ignoring case; empty for null or an
   * unknown one.
   */
  static <E extends Enum<E>> Optional<E> find(E[] constants, String spelling) {
    return Arrays.stream(constants)
        .filter(c -> c.toString().equalsIgnoreCase(spelling))
        .findFirst();
  }
}
