package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Backup}'s progress and result. In flight it exists only here; the bucket receives the
 * final manifest once, which is what makes the backup exist.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStatus implements PhasedStatus<RunPhase> {
  @JsonPropertyDescription(
      "InProgress, WaitingForVolumes, then Completed, PartiallyFailed or Failed")
  public RunPhase phase;

  @Override
  public RunPhase phase() {
    return phase;
  }

  @Override
  public boolean finished() {
    return phase != null && phase.isFinal();
  }

  public String message;

  @JsonPropertyDescription("The repository (BackupStorageLocationRepository) written to")
  public String repository;

  @JsonPropertyDescription("Objects backed up")
  public @Nullable Integer items;

  public @Nullable Integer warnings;

  @JsonPropertyDescription("Objects or resource types that could not be backed up")
  public @Nullable Integer errors;

  public String startTimestamp;

  public String completionTimestamp;

  @JsonPropertyDescription("When the backup may be deleted (its time plus spec.ttl)")
  public String expiration;

  @JsonPropertyDescription(
      "The backup's snapshot: resources, volumes, backup.json and backup.log; its manifest is"
          + " what makes the backup exist")
  public String snapshotID;

  @JsonPropertyDescription(
      "The snapshot of the API resources, written before the volumes are waited for")
  public String resourcesSnapshotID;

  @JsonPropertyDescription("Pod volumes selected (one PodVolumeBackup each)")
  public @Nullable Integer volumes;

  public @Nullable Integer volumesCompleted;

  public @Nullable Integer volumesFailed;

  @JsonPropertyDescription("The manifest blob that makes the backup exist, such as snapshots/<id>")
  public String manifest;

  @JsonPropertyDescription(
      "Chunks this backup added to the repository (the rest were already there)")
  public @Nullable Long chunksNew;

  @JsonPropertyDescription("Hooks run and failed")
  public HookStatus hookStatus;

  @JsonPropertyDescription(
      "While WaitingForVolumes: the pods (namespace/name) whose post hooks run once the volumes"
          + " are done")
  public List<String> postHookPods;

  @JsonPropertyDescription(
      "Set before the post hooks run, so that an operator restarted after does not run them again")
  public @Nullable Boolean postHooksStarted;
}
