package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What the operator last found at a {@link BackupStorageLocation}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationStatus implements PhasedStatus<LocationPhase> {
  @JsonPropertyDescription("Available or Unavailable")
  public LocationPhase phase;

  @Override
  public LocationPhase phase() {
    return phase;
  }

  @JsonPropertyDescription("Why the location is Unavailable, as what to change")
  public String message;

  public String lastValidationTime;

  public @Nullable Long observedGeneration;

  @JsonPropertyDescription("The bucket's versioning: Enabled, Suspended or Off")
  public String versioning;

  public @Nullable Boolean objectLockEnabled;

  @JsonPropertyDescription("The bucket's default retention rule, such as compliance/30d, or none")
  public String defaultRetention;

  @JsonPropertyDescription(
      "The retention repositories here give their blobs, such as compliance/30d")
  public String lock;

  @JsonPropertyDescription(
      "What keeps the backups here from deletion: compliance 30d, governance 30d, versioning"
          + " only, or none")
  public String protection;

  public List<Condition> conditions = new ArrayList<>();
}
