package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import org.jspecify.annotations.Nullable;

/** A {@link Restore}'s progress; its results are written to the repository once, at the end. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreStatus implements PhasedStatus<RunPhase> {
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

  @JsonPropertyDescription("Objects created or updated")
  public @Nullable Integer itemsRestored;

  @JsonPropertyDescription("Objects that existed and were left as they were")
  public @Nullable Integer itemsSkipped;

  public @Nullable Integer warnings;

  public @Nullable Integer errors;

  public @Nullable Integer volumes;

  public @Nullable Integer volumesCompleted;

  public @Nullable Integer volumesFailed;

  public String startTimestamp;

  public String completionTimestamp;

  @JsonPropertyDescription("The snapshot holding restore.json and restore.log, written once")
  public String resultsSnapshotID;

  @JsonPropertyDescription(
      "While WaitingForVolumes: what the results need, so a restart loses nothing")
  public RestoreProgress progress;

  @JsonPropertyDescription("Hooks run and failed")
  public HookStatus hookStatus;
}
