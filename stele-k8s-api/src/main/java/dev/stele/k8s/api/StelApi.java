package dev.stele.k8s.api;

/** Constants shared by every resource of the API. */
public final class StelApi {
  public static final String GROUP = "stele.dev";
  public static final String VERSION = "v1alpha1";

  /** Label on a repository naming the location it lives in. */
  public static final String LOCATION_LABEL = GROUP + "/backup-storage-location";

  /** Label on the repository the operator created as a location's default. */
  public static final String DEFAULT_REPOSITORY_LABEL = GROUP + "/default-repository";

  private StelApi() {}
}
