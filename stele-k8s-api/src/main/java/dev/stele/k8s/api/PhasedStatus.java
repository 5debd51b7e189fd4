package dev.stele.k8s.api;

/**
 * A status with a phase, the first thing a reconciler looks at. A method, not a property: the field
 * {@code phase} is what is written.
 *
 * @param <P> the resource's phases
 */
public interface PhasedStatus<P extends Enum<P>> {
  /** The phase; null before the first one. */
  P phase();

  /** Whether the resource's work is over: nothing follows its phase. */
  default boolean finished() {
    return false;
  }
}
