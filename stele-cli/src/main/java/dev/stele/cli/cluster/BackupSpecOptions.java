package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Durations;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a backup selects ({@link FilterOptions}) and where it goes, with Velero's option names:
 * shared by {@code backup create} and {@code schedule create} (the schedule's backup template).
 * Checked here, so that a typo is one line naming the option and nothing is created.
 */
final class BackupSpecOptions {
  @Mixin FilterOptions filters;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      description = "How long the backup is kept, such as 720h, 30d or 1h30m (default: 720h).")
  String ttl;

  @Option(
      names = "--storage-location",
      paramLabel = "BSL",
      description =
          "The BackupStorageLocation whose default repository receives the backup (default:"
              + " default).")
  String storageLocation;

  @Option(
      names = "--repository",
      paramLabel = "BSLR",
      description = "The BackupStorageLocationRepository receiving the backup.")
  String repository;

  @Option(
      names = "--default-volumes-to-fs-backup",
      arity = "0..1",
      paramLabel = "BOOL",
      description =
          "Back up every pod volume of the selected pods, not only those their"
              + " stele.dev/backup-volumes annotation names.")
  Boolean defaultVolumesToFsBackup;

  @Option(
      names = "--include-cluster-scoped-resources",
      split = ",",
      paramLabel = "RESOURCE",
      description =
          "Cluster-scoped resources to back up in full, such as storageclasses.storage.k8s.io (*"
              + " for all); others only when backed-up objects need them. Not with"
              + " --include-cluster-resources.")
  List<String> includeClusterScoped;

  @Option(
      names = "--exclude-cluster-scoped-resources",
      split = ",",
      paramLabel = "RESOURCE",
      description =
          "Cluster-scoped resources never to back up, not even when backed-up objects need them"
              + " (* for all). Not with --include-cluster-resources.")
  List<String> excludeClusterScoped;

  /** The spec these options describe; a usage failure for anything malformed. */
  BackupSpec spec() {
    BackupSpec spec = new BackupSpec();
    spec.includedNamespaces = filters.includedNamespaces();
    spec.excludedNamespaces = filters.excludedNamespaces();
    spec.includedResources = filters.includedResources();
    spec.excludedResources = filters.excludedResources();
    spec.labelSelector = filters.labelSelector();
    spec.orLabelSelectors = filters.orLabelSelectors();
    spec.ttl = ttl == null ? null : ttl(ttl);
    if (storageLocation != null) {
      spec.storageLocation = KubeNames.resourceName("--storage-location", storageLocation);
    }
    if (repository != null) {
      spec.repository = KubeNames.resourceName("--repository", repository);
    }
    spec.defaultVolumesToFsBackup = defaultVolumesToFsBackup;
    spec.includeClusterResources = filters.includeClusterResources();
    spec.includedClusterScopedResources =
        FilterOptions.resources("--include-cluster-scoped-resources", includeClusterScoped);
    spec.excludedClusterScopedResources =
        FilterOptions.resources("--exclude-cluster-scoped-resources", excludeClusterScoped);
    if (spec.includeClusterResources != null
        && (includeClusterScoped != null || excludeClusterScoped != null)) {
      throw CliException.usage(
          "--include-cluster-resources cannot be given with"
              + " --include/--exclude-cluster-scoped-resources: use one or the other");
    }
    return spec;
  }

  /** A Kubernetes duration (the CRD's form: {@code 720h}, {@code 1h30m}, {@code 30d}). */
  static String ttl(String text) {
    Duration d;
    try {
      d = Durations.parse(text, null);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(
          "--ttl " + text + ": not a duration (write it like 720h, 30d or 1h30m)");
    }
    if (d == null || d.isZero()) {
      throw CliException.usage("--ttl " + text + ": must be longer than zero");
    }
    return text.strip();
  }
}
