package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What a {@link Backup} selects, and where it goes. Velero's names. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupSpec {
  @JsonPropertyDescription("Namespaces to back up; empty or * for all")
  public List<String> includedNamespaces;

  @JsonPropertyDescription("Namespaces not to back up")
  public List<String> excludedNamespaces;

  @JsonPropertyDescription(
      "Resources to back up, by plural name, with the group for non-core ones (configmaps,"
          + " deployments.apps); empty or * for every resource type the operator collects")
  public List<String> includedResources;

  @JsonPropertyDescription("Resources not to back up, named as in includedResources")
  public List<String> excludedResources;

  @JsonPropertyDescription(
      "Cluster-scoped resources: true, all of them; false, none; unset, all when every namespace"
          + " is backed up, otherwise those the backed-up objects need (the CRDs of their custom"
          + " resources, the PersistentVolumes and StorageClasses of their claims, the"
          + " ClusterRoleBindings of their ServiceAccounts and the ClusterRoles these bind)."
          + " The Namespace objects of the selected namespaces are backed up in every case")
  public @Nullable Boolean includeClusterResources;

  @JsonPropertyDescription(
      "Cluster-scoped resources backed up in full, named as in includedResources"
          + " (persistentvolumes, storageclasses.storage.k8s.io; * for all); the others only when"
          + " the backed-up objects need them. Not with includeClusterResources")
  public List<String> includedClusterScopedResources;

  @JsonPropertyDescription(
      "Cluster-scoped resources never backed up, not even when backed-up objects need them;"
          + " * for all. Not with includeClusterResources")
  public List<String> excludedClusterScopedResources;

  @JsonPropertyDescription(
      "Only objects these labels select (matchLabels and matchExpressions, all must hold)")
  public LabelSelector labelSelector;

  @JsonPropertyDescription(
      "Only objects one of these selectors selects; not together with labelSelector")
  public List<LabelSelector> orLabelSelectors;

  @JsonPropertyDescription("How long the backup is kept (default 720h)")
  @Pattern("^([0-9]+(ms|s|m|h|d))+$")
  public String ttl;

  @JsonPropertyDescription(
      "The BackupStorageLocation whose default repository receives the backup, when repository"
          + " is not given (default: the location named default)")
  public String storageLocation;

  @JsonPropertyDescription(
      "The BackupStorageLocationRepository, in this namespace, receiving the backup")
  public String repository;

  @JsonPropertyDescription(
      "Back up every pod volume of the selected pods, not only those the pod's"
          + " stele.dev/backup-volumes (or backup.velero.io/backup-volumes) annotation names;"
          + " stele.dev/backup-volumes-excludes opts volumes out")
  public @Nullable Boolean defaultVolumesToFsBackup;

  @JsonPropertyDescription(
      "Commands run in the selected pods' containers before and after their volumes are backed"
          + " up (pods annotated pre.hook.backup.velero.io/... or pre.hook.backup.stele.dev/..."
          + " run their own instead)")
  public BackupHooks hooks;
}
