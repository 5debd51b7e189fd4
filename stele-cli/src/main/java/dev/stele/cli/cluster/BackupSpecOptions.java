package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.operator.Durations;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * What a backup selects and where it goes, with Velero's option names: shared by {@code backup
 * create} and {@code schedule create} (the schedule's backup template). Checked here, so that a
 * typo is one line naming the option and nothing is created.
 */
final class BackupSpecOptions {
  @Option(
      names = "--include-namespaces",
      split = ",",
      paramLabel = "NS",
      description = "Namespaces to back up (default: all, also written *).")
  List<String> includeNamespaces;

  @Option(
      names = "--exclude-namespaces",
      split = ",",
      paramLabel = "NS",
      description = "Namespaces not to back up.")
  List<String> excludeNamespaces;

  @Option(
      names = "--include-resources",
      split = ",",
      paramLabel = "RESOURCE",
      description =
          "Resources to back up, by plural name, with the group for non-core ones (configmaps,"
              + " deployments.apps); default: all the operator collects.")
  List<String> includeResources;

  @Option(
      names = "--exclude-resources",
      split = ",",
      paramLabel = "RESOURCE",
      description = "Resources not to back up, named as for --include-resources.")
  List<String> excludeResources;

  @Option(
      names = {"-l", "--selector"},
      paramLabel = "KEY=VALUE[,...]",
      description = "Only objects with all these labels.")
  String selector;

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
      names = "--include-cluster-resources",
      arity = "1",
      paramLabel = "true|false",
      description = "Whether the Namespace objects of the selected namespaces are backed up.")
  Boolean includeClusterResources;

  /** The spec these options describe; a usage failure for anything malformed. */
  BackupSpec spec() {
    BackupSpec spec = new BackupSpec();
    spec.includedNamespaces = KubeNames.namespaces("--include-namespaces", includeNamespaces);
    spec.excludedNamespaces = KubeNames.namespaces("--exclude-namespaces", excludeNamespaces);
    spec.includedResources = resources("--include-resources", includeResources);
    spec.excludedResources = resources("--exclude-resources", excludeResources);
    spec.labelSelector = KubeNames.selector("--selector", selector);
    spec.ttl = ttl == null ? null : ttl(ttl);
    if (storageLocation != null) {
      spec.storageLocation = KubeNames.resourceName("--storage-location", storageLocation);
    }
    if (repository != null) {
      spec.repository = KubeNames.resourceName("--repository", repository);
    }
    spec.defaultVolumesToFsBackup = defaultVolumesToFsBackup;
    spec.includeClusterResources = includeClusterResources;
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

  static List<String> resources(String option, List<String> names) {
    if (names == null) {
      return null;
    }
    List<String> out = names.stream().map(String::strip).toList();
    for (String n : out) {
      if (n.isEmpty() || n.contains(" ") || n.contains("/")) {
        throw CliException.usage(
            option + " '" + n + "': name resources by plural name, such as deployments.apps");
      }
    }
    return out;
  }
}
