package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** The phases of a {@link DeleteBackupRequest}. */
public enum DeletionPhase {
  IN_PROGRESS("InProgress"),
  PROCESSED("Processed");

  private final String value;

  DeletionPhase(String value) {
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
