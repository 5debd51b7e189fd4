package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup-location get [NAME...]}: one line per BackupStorageLocation, in Velero's
 * columns; {@code -o wide} adds the protection, the lock and what the operator found at the bucket.
 */
@Command(name = "get", description = "List BackupStorageLocations, or show the named ones.")
final class BackupLocationGetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Locations (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean table = output.table();
    List<BackupStorageLocation> locations =
        select(BackupStorageLocation.class, "backup storage location", names);
    if (!table) {
      output.print(client, out(), locations, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Table t =
        new Table(
                "NAME",
                "PROVIDER",
                "BUCKET/PREFIX",
                "PHASE",
                "LAST VALIDATED",
                "ACCESS MODE",
                "DEFAULT",
                "PROTECTION",
                "LOCK",
                "VERSIONING",
                "BUCKET RULE",
                "MESSAGE")
            .narrow(7, output.wide());
    for (BackupStorageLocation l : locations) {
      BackupStorageLocationSpec spec =
          l.getSpec() == null ? new BackupStorageLocationSpec() : l.getSpec();
      BackupStorageLocationStatus s =
          l.getStatus() == null ? new BackupStorageLocationStatus() : l.getStatus();
      String name = l.getMetadata().getName();
      t.row(
          name,
          spec.provider,
          where(spec),
          s.phase == null ? "New" : s.phase,
          Format.apiTime(s.lastValidationTime),
          spec.access(),
          name.equals("default"),
          s.protection != null ? s.protection : "-",
          s.lock != null ? s.lock : "-",
          s.versioning != null ? s.versioning : "-",
          s.defaultRetention != null ? s.defaultRetention : "-",
          s.message != null ? s.message : "");
    }
    t.print(out());
    return ExitCode.OK;
  }

  private static String where(BackupStorageLocationSpec spec) {
    if (spec.objectStorage == null) {
      return "-";
    }
    String prefix = spec.objectStorage.prefix;
    return spec.objectStorage.bucket + (prefix == null || prefix.isEmpty() ? "" : "/" + prefix);
  }
}
