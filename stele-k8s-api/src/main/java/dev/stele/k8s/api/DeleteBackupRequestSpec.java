package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** Which backup to delete. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeleteBackupRequestSpec {
  @JsonPropertyDescription("The Backup, in this namespace, to delete")
  @Required
  public String backupName;
}
