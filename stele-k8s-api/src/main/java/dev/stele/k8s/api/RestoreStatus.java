package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A {@link Restore}'s progress; its results are written to the repository once, at the end. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreStatus {
  @JsonPropertyDescription(
      "InProgress, WaitingForVolumes, then Completed, PartiallyFailed or Failed")
  public RunPhase phase;

  public String message;

  @JsonPropertyDescription("Objects created or updated")
  public Integer itemsRestored;

  @JsonPropertyDescription("Objects that existed and were left as they were")
  public Integer itemsSkipped;

  public Integer warnings;

  public Integer errors;

  public Integer volumes;

  public Integer volumesCompleted;

  public Integer volumesFailed;

  public String startTimestamp;

  public String completionTimestamp;

  @JsonPropertyDescription("The snapshot holding restore.json and restore.log, written once")
  public String resultsSnapshotID;

  @JsonPropertyDescription(
      "While WaitingForVolumes: what the results need, so a restart loses nothing")
  public RestoreProgress progress;
}
