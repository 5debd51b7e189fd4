package dev.stele.cli;

import picocli.CommandLine.Command;

/** {@code stele snapshot …}: take, list, show, compare and forget snapshots. */
@Command(
    name = "snapshot",
    description = "Take, list, show, compare and forget snapshots.",
    subcommands = {
      SnapshotCreateCommand.class,
      SnapshotListCommand.class,
      SnapshotShowCommand.class,
      SnapshotDiffCommand.class,
      SnapshotForgetCommand.class,
    })
final class SnapshotCommand extends GroupCommand {}
