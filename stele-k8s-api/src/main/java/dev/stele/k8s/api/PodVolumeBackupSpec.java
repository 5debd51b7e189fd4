package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/** Which volume to back up, where to, and for which Backup. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self == oldSelf", message = "a PodVolumeBackup's spec cannot change")
public class PodVolumeBackupSpec {
  @JsonPropertyDescription("The node whose agent serves this request (the pod's spec.nodeName)")
  public String node;

  public PodRef pod;

  @JsonPropertyDescription("The volume's name in the pod's spec.volumes")
  public String volume;

  @JsonPropertyDescription("The BackupStorageLocationRepository, in this namespace, written to")
  public String repository;

  public String backupName;

  public String backupUID;

  @JsonPropertyDescription("When the backup expires: the volume snapshot is retained until then")
  public String expiration;
}
