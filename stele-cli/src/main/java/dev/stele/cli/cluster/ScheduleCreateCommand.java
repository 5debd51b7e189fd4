package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.ScheduleSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Set;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele schedule create NAME --schedule CRON}: a Schedule whose backup template is what the
 * {@code backup create} options describe. The expression's shape is checked here (five fields, or a
 * macro); the operator parses it.
 */
@Command(
    name = "create",
    description = "Create a Schedule: a Backup with these options at every time CRON names.")
final class ScheduleCreateCommand extends ClusterCommand {
  private static final Set<String> MACROS = Set.of("@hourly", "@daily", "@weekly", "@monthly");
  private static final Pattern FIELD = Pattern.compile("[0-9A-Za-z*?,/-]+");

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

  static String cron(String text) {
    String t = text.strip();
    if (MACROS.contains(t)) {
      return t;
    }
    String[] fields = t.split("\\s+");
    boolean ok = fields.length == 5;
    for (String f : fields) {
      ok &= FIELD.matcher(f).matches();
    }
    if (!ok) {
      throw CliException.usage(
          "--schedule "
              + text
              + ": write five cron fields (minute hour day-of-month month day-of-week), such as"
              + " \"0 3 * * *\", or @hourly, @daily, @weekly, @monthly");
    }
    return String.join(" ", fields);
  }
}
