package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Restore} waiting for its volumes has done so far: what its results need that the
 * cluster does not otherwise hold. Kept in the status while the Restore is WaitingForVolumes (and
 * removed when it ends), so that an operator that restarts in between writes the same results as
 * one that did not: the state of a restore in flight lives in the cluster, not in a process.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreProgress {
  @JsonPropertyDescription("The snapshot of the backup restored from")
  public String backupSnapshotID;

  @JsonPropertyDescription("The repository (BackupStorageLocationRepository) the results go to")
  public String repository;

  @JsonPropertyDescription("When the results may be forgotten: the backup's expiration")
  public String resultsExpiration;

  @JsonPropertyDescription("What happened to each object selected, in the order restored")
  public List<Item> objects;

  public List<String> warnings;

  public List<String> errors;

  @JsonPropertyDescription("The lines of restore.log so far")
  public List<String> log;

  @JsonPropertyDescription("The PodVolumeRestores asked for")
  public List<VolumeRequest> volumeRequests;

  @JsonPropertyDescription("What this record leaves out, and why (null when complete)")
  public String note;

  @JsonPropertyDescription("Restored pods whose post-restore exec hooks have not finished")
  public List<HookPod> hookPods;

  /** A restored pod whose post-restore hooks are to run. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class HookPod {
    @JsonPropertyDescription("The restored pod's namespace")
    public String namespace;

    public String pod;

    @JsonPropertyDescription("The namespace it was backed up in, which spec hooks select")
    public String backedUpIn;

    @JsonPropertyDescription(
        "Set before its hooks run, so that an operator restarted after does not run them again")
    public @Nullable Boolean started;
  }

  /** One object of the backup the restore selected, and what happened to it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Item {
    @JsonPropertyDescription("The object's type, as filters name it (deployments.apps)")
    public String resource;

    public String namespace;
    public String name;

    @JsonPropertyDescription("namespace/name or name where it was restored")
    public String restoredAs;

    @JsonPropertyDescription("restored, updated, skipped or failed")
    public String result;

    public String message;
  }

  /** A pod volume the restore asked the node agent to fill. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class VolumeRequest {
    @JsonPropertyDescription("The restored pod's namespace")
    public String namespace;

    public String pod;
    public String volume;
    public String snapshotID;

    @JsonPropertyDescription("The PodVolumeRestore's name, in the Restore's namespace")
    public String name;
  }
}
