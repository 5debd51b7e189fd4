package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** Which snapshot fills which volume of which restored pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self == oldSelf", message = "a PodVolumeRestore's spec cannot change")
public class PodVolumeRestoreSpec {
  @JsonPropertyDescription("The restored pod; its node is read from the pod once it is scheduled")
  public PodRef pod;

  @JsonPropertyDescription("The volume's name in the pod's spec.volumes")
  public String volume;

  @JsonPropertyDescription("The BackupStorageLocationRepository, in this namespace, read from")
  public String repository;

  @JsonPropertyDescription("The volume snapshot to restore")
  public String snapshotID;

  public String restoreName;

  public String restoreUID;

  @JsonPropertyDescription(
      "For a request by requestedBy: the paths inside the volume to restore, each to its own"
          + " place in the live volume (a Restore's request restores all of the volume)")
  public List<String> paths;

  @JsonPropertyDescription(
      "The repository server's user who asked for this restore; set, the request waits until an"
          + " admin sets the annotation stele.dev/approved-by")
  public String requestedBy;

  @JsonPropertyDescription("Whether files already in the volume are replaced (default: kept)")
  public Boolean overwrite;
}
