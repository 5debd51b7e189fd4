package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup-location delete NAME... [--confirm]}: deletes the BackupStorageLocation
 * resources, and nothing else. Nothing in the bucket is deleted; the location's repositories and
 * their Backups stay in the cluster, unusable until a location of that name exists again. Unlike
 * Velero, which deletes the location's Backup resources too, Stele deletes Backups only through a
 * DeleteBackupRequest ({@code backup delete}), which tombstones them in the repository.
 */
@Command(
    name = "delete",
    description =
        "Delete BackupStorageLocations; nothing in their buckets is deleted, their repositories"
            + " and backups stay.")
final class BackupLocationDeleteCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "1..*", description = "Locations to delete.")
  List<String> names;

  @Option(names = "--confirm", description = "Do not ask for confirmation.")
  boolean confirm;

  @Override
  int run() {
    List<BackupStorageLocation> locations =
        select(BackupStorageLocation.class, "backup storage location", names);
    if (!Confirm.delete(
        env(),
        confirm,
        "backup storage location",
        names,
        namespace,
        " (nothing in the bucket is deleted)")) {
      out().println("Nothing deleted.");
      return ExitCode.OK;
    }
    List<BackupStorageLocationRepository> repositories =
        client
            .resources(BackupStorageLocationRepository.class)
            .inNamespace(namespace)
            .list()
            .getItems();
    List<Backup> backups = client.resources(Backup.class).inNamespace(namespace).list().getItems();
    for (BackupStorageLocation bsl : locations) {
      String name = bsl.getMetadata().getName();
      client.resource(bsl).delete();
      Set<String> repos =
          repositories.stream()
              .filter(r -> r.getSpec() != null && name.equals(r.getSpec().backupStorageLocation))
              .map(r -> r.getMetadata().getName())
              .collect(Collectors.toCollection(TreeSet::new));
      long inThem = backups.stream().filter(b -> belongs(b, name, repos)).count();
      out()
          .printf(
              "Backup storage location \"%s\" deleted. Nothing in bucket %s was deleted%s.%n",
              name,
              bsl.getSpec() == null || bsl.getSpec().objectStorage == null
                  ? "?"
                  : bsl.getSpec().objectStorage.bucket,
              repos.isEmpty()
                  ? ""
                  : ": its repositories "
                      + String.join(", ", repos)
                      + " and their "
                      + inThem
                      + (inThem == 1 ? " backup stay" : " backups stay")
                      + ", unusable until a location named "
                      + name
                      + " exists again");
    }
    return ExitCode.OK;
  }

  /** Whether the backup is in one of {@code repositories}, or goes to location {@code name}. */
  private static boolean belongs(Backup b, String name, Set<String> repositories) {
    String repository =
        b.getStatus() != null && b.getStatus().repository != null
            ? b.getStatus().repository
            : b.getSpec() == null ? null : b.getSpec().repository;
    if (repository != null) {
      return repositories.contains(repository);
    }
    String location = b.getSpec() == null ? null : b.getSpec().storageLocation;
    return name.equals(location == null ? "default" : location);
  }
}
