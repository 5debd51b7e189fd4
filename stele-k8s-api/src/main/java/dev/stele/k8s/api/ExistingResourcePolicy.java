package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What a {@link Restore} does with an object that already exists in the cluster. */
public enum ExistingResourcePolicy {
  NONE("none"),
  UPDATE("update");

  private final String value;

  ExistingResourcePolicy(String value) {
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
  public static Optional<ExistingResourcePolicy> of(String value) {
    return Spellings.find(values(), value);
  }
}
