package dev.stele.k8s.api;

/** Constants shared by every resource of the API. */
public final class StelApi {
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

  private StelApi() {}
}
