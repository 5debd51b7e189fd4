package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** What a deletion did, and what it could not do yet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeleteBackupRequestStatus implements PhasedStatus<DeletionPhase> {
  @JsonPropertyDescription("InProgress, then Processed")
  public DeletionPhase phase;

  @Override
  public DeletionPhase phase() {
    return phase;
  }

  @Override
  public boolean finished() {
    return phase == DeletionPhase.PROCESSED;
  }

  public String message;

  public List<String> errors;

  @JsonPropertyDescription("The tombstones written, one per snapshot of the backup")
  public List<String> tombstones;

  @JsonPropertyDescription(
      "Until when the storage's retention keeps the backup's data: maintenance reclaims it after")
  public String retainedUntil;
}
