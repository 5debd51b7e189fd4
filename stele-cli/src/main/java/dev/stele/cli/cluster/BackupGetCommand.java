package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code stele backup get [NAME...]}: one line per Backup, or the resources as JSON or YAML. */
@Command(name = "get", description = "List Backups, or show the named ones.")
final class BackupGetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Backups (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean table = output.table();
    List<Backup> backups = select(Backup.class, "backup", names);
    if (!table) {
      output.print(client, out(), backups, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Table t =
        new Table(
                "NAME",
                "STATUS",
                "ERRORS",
                "WARNINGS",
                "CREATED",
                "EXPIRES",
                "REPOSITORY",
                "STORAGE LOCATION",
                "SELECTOR",
                "ITEMS",
                "VOLUMES",
                "SCHEDULE",
                "SNAPSHOT")
            .narrow(7, output.wide());
    Instant now = env().clock().instant();
    for (Backup b : backups) {
      BackupStatus s = b.getStatus() == null ? new BackupStatus() : b.getStatus();
      BackupSpec spec = b.getSpec() == null ? new BackupSpec() : b.getSpec();
      t.row(
          b.getMetadata().getName(),
          phase(s.phase),
          s.errors == null ? 0 : s.errors,
          s.warnings == null ? 0 : s.warnings,
          Format.apiTime(b.getMetadata().getCreationTimestamp()),
          expires(s.expiration, now),
          s.repository != null ? s.repository : spec.repository != null ? spec.repository : "-",
          spec.storageLocation != null ? spec.storageLocation : "default",
          KubeNames.selector(spec.labelSelector),
          s.items == null ? "-" : s.items,
          s.volumes == null ? "-" : s.volumes,
          label(b, SteleApi.SCHEDULE_NAME_LABEL),
          s.snapshotID == null ? "-" : Describe.shortId(s.snapshotID));
    }
    t.print(out());
    return ExitCode.OK;
  }

  /** The value of a label, or {@code -}. */
  static String label(HasMetadata resource, String key) {
    var labels = resource.getMetadata().getLabels();
    return labels == null || !labels.containsKey(key) ? "-" : labels.get(key);
  }

  /** A resource's phase, or New when the operator has not written one yet. */
  static String phase(Enum<?> phase) {
    return phase == null ? "New" : phase.toString();
  }

  /** {@code 29d} until expiry, {@code expired}, or {@code -} when not known yet. */
  static String expires(String expiration, Instant now) {
    Instant at = Format.instant(expiration);
    if (at == null) {
      return expiration == null ? "-" : expiration;
    }
    return at.isAfter(now) ? Format.age(Duration.between(now, at)) : "expired";
  }
}
