package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a repository's maintenance run ended. */
public enum MaintenanceResult {
  SUCCEEDED("Succeeded"),
  FAILED("Failed");

  private final String value;

  MaintenanceResult(String value) {
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
