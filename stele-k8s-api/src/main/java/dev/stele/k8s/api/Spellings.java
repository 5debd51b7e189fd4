package dev.stele.k8s.api;

import java.util.Arrays;
import java.util.Optional;

/** Reads an enum back from the spelling a resource, label or document carries. */
final class Spellings {
  private Spellings() {}

  /**
   * The constant whose {@code toString()} is {@code spelling}; empty for null or an unknown one.
   */
  static <E extends Enum<E>> Optional<E> find(E[] constants, String spelling) {
    return Arrays.stream(constants).filter(c -> c.toString().equals(spelling)).findFirst();
  }
}
