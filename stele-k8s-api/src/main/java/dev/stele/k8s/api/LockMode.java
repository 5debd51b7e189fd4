package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The retention a {@link BackupStorageLocation} asks repositories there to give every blob. */
public enum LockMode {
  DETECT("Detect"),
  NONE("None"),
  GOVERNANCE("Governance"),
  COMPLIANCE("Compliance");

  private final String value;

  LockMode(String value) {
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
  public static Optional<LockMode> of(String value) {
    return Spellings.find(values(), value);
  }
}
