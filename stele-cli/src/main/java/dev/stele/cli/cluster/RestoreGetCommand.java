package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code stele restore get [NAME...]}: one line per Restore, or the resources as JSON or YAML. */
@Command(name = "get", description = "List Restores, or show the named ones.")
public final class RestoreGetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Restores (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean table = output.table();
    List<Restore> restores = select(Restore.class, "restore", names);
    if (!table) {
      output.print(client, out(), restores, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Table t =
        new Table(
                "NAME",
                "BACKUP",
                "STATUS",
                "STARTED",
                "COMPLETED",
                "ERRORS",
                "WARNINGS",
                "CREATED",
                "SELECTOR",
                "RESTORED",
                "SKIPPED",
                "VOLUMES",
                "NAMESPACE MAPPINGS")
            .narrow(8, output.wide());
    for (Restore r : restores) {
      RestoreStatus s = r.getStatus() == null ? new RestoreStatus() : r.getStatus();
      RestoreSpec spec = r.getSpec() == null ? new RestoreSpec() : r.getSpec();
      t.row(
          r.getMetadata().getName(),
          spec.backupName,
          BackupGetCommand.phase(s.phase),
          Format.apiTime(s.startTimestamp),
          Format.apiTime(s.completionTimestamp),
          s.errors == null ? 0 : s.errors,
          s.warnings == null ? 0 : s.warnings,
          Format.apiTime(r.getMetadata().getCreationTimestamp()),
          KubeNames.selector(spec.labelSelector),
          s.itemsRestored == null ? "-" : s.itemsRestored,
          s.itemsSkipped == null ? "-" : s.itemsSkipped,
          s.volumes == null ? "-" : s.volumes,
          RestoreDescribeCommand.mappings(spec.namespaceMapping));
    }
    t.print(out());
    return ExitCode.OK;
  }
}
