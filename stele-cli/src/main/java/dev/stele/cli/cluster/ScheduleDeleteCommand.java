package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Schedule;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele schedule delete NAME...}: deletes the Schedules, after a yes at the terminal or with
 * {@code --confirm}, as Velero does. Their Backups stay: each is deleted on its own, or expires.
 */
@Command(
    name = "delete",
    description = "Delete Schedules; the Backups they created stay until deleted or expired.")
final class ScheduleDeleteCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "1..*", description = "Schedules to delete.")
  List<String> names;

  @Option(names = "--confirm", description = "Do not ask for confirmation.")
  boolean confirm;

  @Override
  int run() {
    List<Schedule> schedules = select(Schedule.class, "schedule", names);
    if (!Confirm.delete(env(), confirm, "schedule", names, namespace, "")) {
      out().println("Nothing deleted.");
      return ExitCode.OK;
    }
    for (Schedule schedule : schedules) {
      client.resource(schedule).delete();
      out()
          .printf(
              "Schedule \"%s\" deleted; its backups stay until deleted or expired.%n",
              schedule.getMetadata().getName());
    }
    return ExitCode.OK;
  }
}
