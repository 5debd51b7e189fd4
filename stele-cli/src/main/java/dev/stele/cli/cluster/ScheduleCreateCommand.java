package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.operator.CronCheck;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele schedule create NAME --schedule CRON}: a Schedule whose backup template is what the
 * {@code backup create} options describe. The expression is checked here with the operator's own
 * parser, so one the operator would refuse is never created.
 */
@Command(
    name = "create",
    description = "Create a Schedule: a Backup with these options at every time CRON names.")
final class ScheduleCreateCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Schedule's name.")
  String name;

  @Option(
      names = "--schedule",
      required = true,
      paramLabel = "CRON",
      description =
          "When, in UTC: five cron fields (minute hour day-of-month month day-of-week), such as"
              + " \"0 3 * * *\", or @hourly, @daily, @weekly, @monthly.")
  String schedule;

  @Option(names = "--paused", description = "Create it paused: no backups until unpaused.")
  boolean paused;

  @Mixin BackupSpecOptions options;

  @Override
  int run() {
    KubeNames.resourceName("schedule name", name);
    ScheduleSpec spec = new ScheduleSpec();
    spec.schedule = cron(schedule);
    spec.template = options.spec();
    spec.paused = paused ? Boolean.TRUE : null;
    if (spec.template.repository != null) {
      require(BackupStorageLocationRepository.class, "repository", spec.template.repository);
    }
    if (spec.template.storageLocation != null) {
      require(BackupStorageLocation.class, "storage location", spec.template.storageLocation);
    }
    Schedule s = new Schedule();
    s.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    s.setSpec(spec);
    create(s, "schedule");
    out()
        .printf(
            "Schedule \"%s\" created in namespace %s%s.%n",
            name, namespace, paused ? ", paused" : "");
    return ExitCode.OK;
  }

  /** The expression as the operator's parser reads it; a usage failure saying what is wrong. */
  static String cron(String text) {
    try {
      CronCheck.check("--schedule", text);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
    return String.join(" ", text.strip().split("\\s+"));
  }
}
