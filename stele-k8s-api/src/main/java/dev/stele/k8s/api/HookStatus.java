package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** How a Backup's or a Restore's hooks went. Velero's {@code hookStatus}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HookStatus {
  @JsonPropertyDescription("Hooks run (their output is in the log)")
  public int hooksAttempted;

  @JsonPropertyDescription("Hooks that failed, timed out or could not be run")
  public int hooksFailed;
}
