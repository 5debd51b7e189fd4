package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code stele schedule get [NAME...]}: one line per Schedule, or the resources as JSON/YAML. */
@Command(name = "get", description = "List Schedules, or show the named ones.")
final class ScheduleGetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Schedules (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean table = output.table();
    List<Schedule> schedules = select(Schedule.class, "schedule", names);
    if (!table) {
      output.print(client, out(), schedules, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Table t =
        new Table(
                "NAME",
                "STATUS",
                "CREATED",
                "SCHEDULE",
                "TTL",
                "LAST BACKUP",
                "NEXT BACKUP",
                "SELECTOR",
                "PAUSED",
                "LAST BACKUP NAME",
                "STORAGE LOCATION",
                "NAMESPACES",
                "MESSAGE")
            .narrow(9, output.wide());
    Instant now = env().clock().instant();
    for (Schedule s : schedules) {
      ScheduleSpec spec = s.getSpec() == null ? new ScheduleSpec() : s.getSpec();
      ScheduleStatus st = s.getStatus() == null ? new ScheduleStatus() : s.getStatus();
      BackupSpec template = spec.template == null ? new BackupSpec() : spec.template;
      t.row(
          s.getMetadata().getName(),
          BackupGetCommand.phase(st.phase),
          Format.apiTime(s.getMetadata().getCreationTimestamp()),
          spec.schedule,
          template.ttl == null ? "720h" : template.ttl,
          relative(st.lastBackup, now),
          relative(st.nextBackup, now),
          KubeNames.selector(template.labelSelector),
          Boolean.TRUE.equals(spec.paused),
          st.lastBackupName == null ? "-" : st.lastBackupName,
          template.storageLocation != null ? template.storageLocation : "default",
          KubeNames.list(template.includedNamespaces, "*"),
          st.message == null ? "" : st.message);
    }
    t.print(out());
    return ExitCode.OK;
  }

  /** {@code 5h ago}, {@code in 3h}, or {@code n/a}. */
  static String relative(String iso, Instant now) {
    Instant at = Format.instant(iso);
    if (at == null) {
      return iso == null ? "n/a" : iso;
    }
    return at.isAfter(now)
        ? "in " + Format.age(Duration.between(now, at))
        : Format.age(Duration.between(at, now)) + " ago";
  }
}
