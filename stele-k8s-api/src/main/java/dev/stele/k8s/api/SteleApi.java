package dev.stele.k8s.api;

/** Constants shared by every resource of the API. */
public final class SteleApi {
  public static final String GROUP = "stele.dev";
  public static final String VERSION = "v1alpha1";

  /** Label on a repository naming the location it lives in. */
  public static final String LOCATION_LABEL = GROUP + "/backup-storage-location";

  /** Label on the repository the operator created as a location's default. */
  public static final String DEFAULT_REPOSITORY_LABEL = GROUP + "/default-repository";

  /** Labels of a backup's snapshot manifest: which Backup it is, and how it ended. */
  public static final String BACKUP_NAME_LABEL = GROUP + "/backup-name";

  public static final String BACKUP_NAMESPACE_LABEL = GROUP + "/backup-namespace";
  public static final String BACKUP_UID_LABEL = GROUP + "/backup-uid";
  public static final String BACKUP_PHASE_LABEL = GROUP + "/phase";
  public static final String BACKUP_EXPIRATION_LABEL = GROUP + "/expiration";
  public static final String BACKUP_ITEMS_LABEL = GROUP + "/items";
  public static final String BACKUP_WARNINGS_LABEL = GROUP + "/warnings";
  public static final String BACKUP_ERRORS_LABEL = GROUP + "/errors";

  /**
   * Label on a backup's snapshots other than its manifest (resources, volumes): the backup's uid.
   */
  public static final String PART_OF_LABEL = GROUP + "/part-of";

  /** Labels of a pod volume's snapshot. */
  public static final String POD_NAMESPACE_LABEL = GROUP + "/pod-namespace";

  public static final String POD_NAME_LABEL = GROUP + "/pod-name";
  public static final String VOLUME_LABEL = GROUP + "/volume";

  /** Labels of a restore's results snapshot. */
  public static final String RESTORE_NAME_LABEL = GROUP + "/restore-name";

  public static final String RESTORE_UID_LABEL = GROUP + "/restore-uid";

  /** Label on a Backup created by a Schedule, naming it. */
  public static final String SCHEDULE_NAME_LABEL = GROUP + "/schedule-name";

  /**
   * Annotation on a Backup created by sync from a manifest found in a repository: the manifest's
   * snapshot id. Such a Backup is never run; its status is read from the manifest.
   */
  public static final String SYNCED_FROM_ANNOTATION = GROUP + "/synced-from";

  /**
   * Annotation on a PodVolumeRestore that a user asked for through the repository server ({@code
   * spec.requestedBy}): the admin who approved it. Until it is set, the node agent writes nothing.
   */
  public static final String APPROVED_BY_ANNOTATION = GROUP + "/approved-by";

  /** Pod annotations choosing volumes to back up (comma-separated names), Stele's and Velero's. */
  public static final String BACKUP_VOLUMES_ANNOTATION = GROUP + "/backup-volumes";

  public static final String VELERO_BACKUP_VOLUMES_ANNOTATION = "backup.velero.io/backup-volumes";

  /** Pod annotations opting volumes out when defaultVolumesToFsBackup is true. */
  public static final String BACKUP_VOLUMES_EXCLUDES_ANNOTATION =
      GROUP + "/backup-volumes-excludes";

  public static final String VELERO_BACKUP_VOLUMES_EXCLUDES_ANNOTATION =
      "backup.velero.io/backup-volumes-excludes";

  /** Snapshot tags: a backup's manifest, its parts, and a restore's results. */
  public static final String BACKUP_TAG = "backup";

  public static final String RESOURCES_TAG = "backup-resources";
  public static final String POD_VOLUME_TAG = "pod-volume";
  public static final String RESTORE_TAG = "restore";

  private SteleApi() {}
}
