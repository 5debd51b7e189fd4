package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A {@link Schedule}'s state. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScheduleStatus implements PhasedStatus<SchedulePhase> {
  @JsonPropertyDescription("Enabled or FailedValidation")
  public SchedulePhase phase;

  @Override
  public SchedulePhase phase() {
    return phase;
  }

  public String message;

  @JsonPropertyDescription("When the last Backup was created")
  public String lastBackup;

  @JsonPropertyDescription("The last Backup created")
  public String lastBackupName;

  @JsonPropertyDescription("When the next Backup will be created")
  public String nextBackup;
}
