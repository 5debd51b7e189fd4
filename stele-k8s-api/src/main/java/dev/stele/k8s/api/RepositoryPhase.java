package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** The phases of a {@link BackupStorageLocationRepository}. */
public enum RepositoryPhase {
  NEW("New"),
  READY("Ready"),
  NOT_READY("NotReady");

  private final String value;

  RepositoryPhase(String value) {
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
