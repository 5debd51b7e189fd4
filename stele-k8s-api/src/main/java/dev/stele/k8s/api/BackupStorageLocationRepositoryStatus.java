package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What the operator last found, and did, in a {@link BackupStorageLocationRepository}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationRepositoryStatus implements PhasedStatus<RepositoryPhase> {
  @JsonPropertyDescription("New, Ready or NotReady")
  public RepositoryPhase phase;

  @Override
  public RepositoryPhase phase() {
    return phase;
  }

  public String message;

  public @Nullable Long observedGeneration;

  @JsonPropertyDescription("The id recorded in the repository's format blob")
  public String repositoryID;

  @JsonPropertyDescription("Where the repository is, such as s3://bucket/prefix/repositories/name")
  public String url;

  @JsonPropertyDescription("The retention the repository gives its blobs, such as compliance/30d")
  public String lock;

  public @Nullable Integer compressionLevel;

  public @Nullable Integer packSizeMiB;

  @JsonPropertyDescription("Snapshots in the repository, not counting forgotten (tombstoned) ones")
  public @Nullable Integer snapshots;

  @JsonPropertyDescription(
      "Snapshots forgotten (tombstoned) whose data maintenance has not reclaimed")
  public @Nullable Integer forgottenSnapshots;

  @JsonPropertyDescription("Pack blobs (the data) in the repository")
  public @Nullable Integer packs;

  @JsonPropertyDescription("Total bytes of the pack blobs, as stored (compressed and encrypted)")
  public @Nullable Long packBytes;

  public String lastMaintenanceTime;

  public String lastFullMaintenanceTime;

  @JsonPropertyDescription("The most recent maintenance runs, newest first")
  public List<MaintenanceRun> recentMaintenance = new ArrayList<>();

  public List<Condition> conditions = new ArrayList<>();

  /** One maintenance run, as it ended. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class MaintenanceRun {
    @JsonPropertyDescription("Quick or Full")
    public MaintenanceKind kind;

    @JsonPropertyDescription("Succeeded or Failed")
    public MaintenanceResult result;

    public String startTimestamp;
    public String completeTimestamp;

    @JsonPropertyDescription("Blobs deleted")
    public @Nullable Integer deleted;

    @JsonPropertyDescription("Deletions deferred because retention has not expired")
    public @Nullable Integer deferred;

    @JsonPropertyDescription("Blobs whose retention was extended")
    public @Nullable Integer extended;

    public String message;
  }
}
