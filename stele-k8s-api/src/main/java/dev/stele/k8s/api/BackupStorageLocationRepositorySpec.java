package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import org.jspecify.annotations.Nullable;

/** What a {@link BackupStorageLocationRepository} asks for. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationRepositorySpec {
  @Required
  @JsonPropertyDescription("The BackupStorageLocation, in this namespace, holding the repository")
  public String backupStorageLocation;

  @JsonPropertyDescription(
      "Secret key holding the repository password; default <name>-repository-password, key"
          + " password. Generated when missing (and no repository exists yet); never deleted by"
          + " the operator.")
  public SecretKeySelector passwordSecretRef;

  public Maintenance maintenance;

  @JsonPropertyDescription("zstd level (1-22), fixed when the repository is created")
  @Min(1)
  @Max(22)
  @ValidationRule(value = "self == oldSelf", message = "compressionLevel is fixed at creation")
  public @Nullable Integer compressionLevel;

  @JsonPropertyDescription("Target pack size in MiB (1-512), fixed when the repository is created")
  @Min(1)
  @Max(512)
  @ValidationRule(value = "self == oldSelf", message = "packSizeMiB is fixed at creation")
  public @Nullable Integer packSizeMiB;

  @JsonPropertyDescription(
      "Retain (default): deleting this resource leaves the repository in the bucket. Delete:"
          + " deleting it deletes the repository's blobs that retention allows and reports the"
          + " rest.")
  @Pattern("^(Retain|Delete)$")
  @Default("Retain")
  public String deletionPolicy;

  /** The deletion policy asked for: Retain unless it says Delete. */
  public DeletionPolicy deletion() {
    return DeletionPolicy.of(deletionPolicy).orElse(DeletionPolicy.RETAIN);
  }

  /** When maintenance runs. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Maintenance {
    @JsonPropertyDescription("Quick maintenance every (default 1h)")
    @Pattern("^([0-9]+(ms|s|m|h|d))+$")
    public String frequency;

    @JsonPropertyDescription("Full maintenance, with verification, every (default 24h)")
    @Pattern("^([0-9]+(ms|s|m|h|d))+$")
    public String fullFrequency;

    public @Nullable Boolean paused;
  }
}
