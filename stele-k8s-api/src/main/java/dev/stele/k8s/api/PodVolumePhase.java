package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The phases of a {@link PodVolumeBackup} or a {@link PodVolumeRestore}, set by the node agent. */
public enum PodVolumePhase {
  NEW("New"),
  AWAITING_APPROVAL("AwaitingApproval"),
  IN_PROGRESS("InProgress"),
  COMPLETED("Completed"),
  FAILED("Failed");

  private final String value;

  PodVolumePhase(String value) {
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
  public static Optional<PodVolumePhase> of(String value) {
    return Spellings.find(values(), value);
  }

  /** Whether nothing follows this phase. */
  public boolean isFinal() {
    return this == COMPLETED || this == FAILED;
  }
}
