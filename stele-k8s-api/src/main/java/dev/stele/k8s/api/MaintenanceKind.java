package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** Which maintenance a repository's run was: quick, or full with verification. */
public enum MaintenanceKind {
  QUICK("Quick"),
  FULL("Full");

  private final String value;

  MaintenanceKind(String value) {
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
