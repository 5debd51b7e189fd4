package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code stele schedule describe [NAME...]}: each Schedule's phase, cron expression, pause, its
 * backup template and its last and next backups, as Velero's {@code schedule describe}.
 */
@Command(name = "describe", description = "Show Schedules: phase, cron, template, last backup.")
final class ScheduleDescribeCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Schedules (default: all).")
  List<String> names;

  @Mixin OutputOption output;

  @Override
  int run() {
    boolean text = output.text();
    List<Schedule> schedules = select(Schedule.class, "schedule", names);
    if (!text) {
      output.print(client, out(), schedules, names != null && names.size() == 1);
      return ExitCode.OK;
    }
    Instant now = env().clock().instant();
    for (int i = 0; i < schedules.size(); i++) {
      if (i > 0) {
        out().println();
      }
      describe(schedules.get(i), now);
    }
    return ExitCode.OK;
  }

  private void describe(Schedule schedule, Instant now) {
    ScheduleSpec spec = schedule.getSpec() == null ? new ScheduleSpec() : schedule.getSpec();
    ScheduleStatus s = schedule.getStatus() == null ? new ScheduleStatus() : schedule.getStatus();
    BackupSpec template = spec.template == null ? new BackupSpec() : spec.template;
    Details d = new Details(out());
    Describe.metadata(d, schedule, namespace);
    d.field("Phase", BackupGetCommand.phase(s.phase));
    if (s.message != null && !s.message.isBlank()) {
      d.field("Message", s.message);
    }
    d.field("Paused", Boolean.TRUE.equals(spec.paused));
    d.end();
    d.field("Schedule", spec.schedule + " (UTC)");
    d.field("Created", Format.apiTime(schedule.getMetadata().getCreationTimestamp()));
    d.end();
    d.heading("Backup template");
    d.end();
    Describe.backupSpec(
        d,
        template,
        template.storageLocation != null ? template.storageLocation : "default",
        template.repository != null ? template.repository : "<the location's default>");
    d.field(
        "Last backup",
        s.lastBackupName == null
            ? "n/a"
            : s.lastBackupName + " (" + ScheduleGetCommand.relative(s.lastBackup, now) + ")");
    d.field(
        "Next backup",
        Boolean.TRUE.equals(spec.paused)
            ? "none while paused"
            : ScheduleGetCommand.relative(s.nextBackup, now));
    d.end();
  }
}
