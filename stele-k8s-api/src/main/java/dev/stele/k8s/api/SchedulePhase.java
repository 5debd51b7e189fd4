package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a {@link Schedule} creates backups or was refused. */
public enum SchedulePhase {
  ENABLED("Enabled"),
  FAILED_VALIDATION("FailedValidation");

  private final String value;

  SchedulePhase(String value) {
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
