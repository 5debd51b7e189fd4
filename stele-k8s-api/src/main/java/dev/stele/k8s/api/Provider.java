package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What a {@link BackupStorageLocation} stores into: an S3 bucket or a mounted directory. */
public enum Provider {
  S3("s3"),
  FILESYSTEM("filesystem");

  private final String value;

  Provider(String value) {
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
  public static Optional<Provider> of(String value) {
    return Spellings.find(values(), value);
  }
}
