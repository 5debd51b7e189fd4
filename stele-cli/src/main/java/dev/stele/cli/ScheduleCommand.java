package dev.stele.cli;

import picocli.CommandLine.Command;

/** {@code stele schedule …}: Schedule resources, as Velero's {@code velero schedule}. */
@Command(
    name = "schedule",
    description = "Create and list the Schedules of a cluster (Backups taken on a cron schedule).",
    subcommands = {ScheduleCreateCommand.class, ScheduleGetCommand.class})
final class ScheduleCommand extends GroupCommand {}
