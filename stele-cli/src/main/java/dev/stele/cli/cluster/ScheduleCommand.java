package dev.stele.cli.cluster;

import dev.stele.cli.GroupCommand;
import picocli.CommandLine.Command;

/** {@code stele schedule …}: Schedule resources, as Velero's {@code velero schedule}. */
@Command(
    name = "schedule",
    description =
        "Create, list, describe, pause, unpause and delete the Schedules of a cluster (Backups"
            + " taken on a cron schedule).",
    subcommands = {
      ScheduleCreateCommand.class,
      ScheduleGetCommand.class,
      ScheduleDescribeCommand.class,
      SchedulePauseCommand.Pause.class,
      SchedulePauseCommand.Unpause.class,
      ScheduleDeleteCommand.class,
    })
public final class ScheduleCommand extends GroupCommand {}
