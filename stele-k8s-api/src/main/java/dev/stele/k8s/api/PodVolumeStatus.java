package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import org.jspecify.annotations.Nullable;

/** Progress of a {@link PodVolumeBackup} or {@link PodVolumeRestore}, written by the node agent. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodVolumeStatus implements PhasedStatus<PodVolumePhase> {
  @JsonPropertyDescription(
      "New (or AwaitingApproval, for a request by a server user), InProgress, then Completed or"
          + " Failed")
  public PodVolumePhase phase;

  @Override
  public PodVolumePhase phase() {
    return phase;
  }

  @Override
  public boolean finished() {
    return phase != null && phase.isFinal();
  }

  public String message;

  @JsonPropertyDescription("The volume's directory on the node")
  public String path;

  @JsonPropertyDescription(
      "The volume's snapshot: written by a backup, read by a restore (the repository's id)")
  public String snapshotID;

  public @Nullable Long bytesDone;

  public @Nullable Long bytesTotal;

  public String startTimestamp;

  public String completionTimestamp;
}
