package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What deleting a {@link BackupStorageLocationRepository} does to the repository in the bucket. */
public enum DeletionPolicy {
  RETAIN("Retain"),
  DELETE("Delete");

  private final String value;

  DeletionPolicy(String value) {
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
  public static Optional<DeletionPolicy> of(String value) {
    return Spellings.find(values(), value);
  }
}
