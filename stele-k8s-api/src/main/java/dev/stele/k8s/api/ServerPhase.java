package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The phases of a {@link BackupStorageLocationServer}: New before the first pass; Ready once its
 * Deployment reports an available replica; NotReady while something it needs is missing or not yet
 * running; Failed when its spec cannot be served as written (it stays so until the spec changes).
 */
public enum ServerPhase {
  NEW("New"),
  READY("Ready"),
  NOT_READY("NotReady"),
  FAILED("Failed");

  private final String value;

  ServerPhase(String value) {
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
}
