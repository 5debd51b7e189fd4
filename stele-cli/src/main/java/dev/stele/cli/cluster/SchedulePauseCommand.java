package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.ScheduleSpec;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele schedule pause|unpause NAME...|--all}: sets {@code spec.paused}, as Velero's. A
 * paused Schedule creates no Backups; unpaused, it takes the next time its expression names (the
 * times missed meanwhile give at most one Backup).
 */
abstract class SchedulePauseCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", arity = "0..*", description = "Schedules.")
  List<String> names;

  @Option(names = "--all", description = "Every Schedule in the namespace.")
  boolean all;

  abstract boolean paused();

  @Override
  int run() {
    if (all == (names != null && !names.isEmpty())) {
      throw CliException.usage("name the schedules, or give --all (not both)");
    }
    String done = paused() ? "paused" : "unpaused";
    for (Schedule schedule : select(Schedule.class, "schedule", all ? null : names)) {
      String name = schedule.getMetadata().getName();
      ScheduleSpec spec = schedule.getSpec();
      if (spec != null && Boolean.valueOf(paused()).equals(spec.paused)) {
        out().printf("Schedule \"%s\" is already %s.%n", name, done);
        continue;
      }
      // A merge patch of the one field: the operator's status writes in between cannot make it
      // fail with a conflict, as a read-modify-write edit would.
      client
          .resources(Schedule.class)
          .inNamespace(namespace)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"paused\":" + paused() + "}}");
      out().printf("Schedule \"%s\" %s.%n", name, done);
    }
    return ExitCode.OK;
  }

  /** {@code stele schedule pause}. */
  @Command(name = "pause", description = "Pause Schedules: no Backups until unpaused.")
  static final class Pause extends SchedulePauseCommand {
    @Override
    boolean paused() {
      return true;
    }
  }

  /** {@code stele schedule unpause}. */
  @Command(name = "unpause", description = "Unpause Schedules: Backups at their times again.")
  static final class Unpause extends SchedulePauseCommand {
    @Override
    boolean paused() {
      return false;
    }
  }
}
