package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a {@link BackupStorageLocation} passed its last check. */
public enum LocationPhase {
  AVAILABLE("Available"),
  UNAVAILABLE("Unavailable");

  private final String value;

  LocationPhase(String value) {
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
