package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Whether the operator may write to a {@link BackupStorageLocation}. */
public enum AccessMode {
  READ_WRITE("ReadWrite"),
  READ_ONLY("ReadOnly");

  private final String value;

  AccessMode(String value) {
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
  public static Optional<AccessMode> of(String value) {
    return Spellings.find(values(), value);
  }
}
