package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import org.jspecify.annotations.Nullable;

/** When to back up, and what. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScheduleSpec {
  @JsonPropertyDescription(
      "A five-field cron expression in UTC (minute hour day-of-month month day-of-week), or"
          + " @hourly, @daily, @weekly, @monthly")
  public String schedule;

  @JsonPropertyDescription("The spec of every Backup this schedule creates")
  public BackupSpec template;

  @JsonPropertyDescription("No backups are created while true")
  public @Nullable Boolean paused;
}
