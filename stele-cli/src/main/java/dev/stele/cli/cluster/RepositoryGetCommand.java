package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.SteleApi;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code stele repository get [NAME...]}: one line per BackupStorageLocationRepository, as Velero's
 * {@code repo get}; {@code -o wide} adds the lock, sizes, full maintenance and the URL.
 */
@Command(name = "get", description = "List BackupStorageLocationRepositories, or the named ones.")
final class RepositoryGetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Repositories (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean table = output.table();
    List<BackupStorageLocationRepository> repositories =
        select(BackupStorageLocationRepository.class, "repository", names);
    if (!table) {
      output.print(client, out(), repositories, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Table t =
        new Table(
                "NAME",
                "LOCATION",
                "PHASE",
                "SNAPSHOTS",
                "LAST MAINTENANCE",
                "DEFAULT",
                "LOCK",
                "PACKS",
                "SIZE",
                "LAST FULL MAINTENANCE",
                "URL",
                "MESSAGE")
            .narrow(5, output.wide());
    for (BackupStorageLocationRepository r : repositories) {
      BackupStorageLocationRepositorySpec spec =
          r.getSpec() == null ? new BackupStorageLocationRepositorySpec() : r.getSpec();
      BackupStorageLocationRepositoryStatus s =
          r.getStatus() == null ? new BackupStorageLocationRepositoryStatus() : r.getStatus();
      Map<String, String> labels = r.getMetadata().getLabels();
      t.row(
          r.getMetadata().getName(),
          spec.backupStorageLocation,
          s.phase == null ? "New" : s.phase,
          s.snapshots == null ? "-" : s.snapshots,
          s.lastMaintenanceTime == null ? "never" : Format.apiTime(s.lastMaintenanceTime),
          labels != null && "true".equals(labels.get(SteleApi.DEFAULT_REPOSITORY_LABEL)),
          s.lock != null ? s.lock : "-",
          s.packs == null ? "-" : s.packs,
          s.packBytes == null ? "-" : Format.bytes(s.packBytes),
          s.lastFullMaintenanceTime == null ? "never" : Format.apiTime(s.lastFullMaintenanceTime),
          s.url != null ? s.url : "-",
          s.message != null ? s.message : "");
    }
    t.print(out());
    return ExitCode.OK;
  }
}
