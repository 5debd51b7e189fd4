package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * The phases of a {@link Backup} or a {@link Restore}: work that runs once, then ends in a final
 * phase.
 */
public enum RunPhase {
  IN_PROGRESS("InProgress"),
  WAITING_FOR_VOLUMES("WaitingForVolumes"),
  COMPLETED("Completed"),
  PARTIALLY_FAILED("PartiallyFailed"),
  FAILED("Failed"),
  /** A Restore refused before it started, as Velero's: its backup was deleted. */
  FAILED_VALIDATION("FailedValidation");

  private final String value;

  RunPhase(String value) {
    this.value = value;
  }

  /** The name in the resource, as the CRD spells it. */
  @JsonValue
  public String value() {
    return value;
  }

  @Override
  public String toString() {
    return value;
  }

  /** The constant spelled {@code value}; empty for null or a spelling the CRD does not have. */
  public static Optional<RunPhase> of(String value) {
    return Spellings.find(values(), value);
  }

  /** Whether nothing follows this phase. */
  public boolean isFinal() {
    return this == COMPLETED
        || this == PARTIALLY_FAILED
        || this == FAILED
        || this == FAILED_VALIDATION;
  }
}
