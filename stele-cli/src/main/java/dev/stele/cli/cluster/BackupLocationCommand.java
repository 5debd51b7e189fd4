package dev.stele.cli.cluster;

import dev.stele.cli.GroupCommand;
import picocli.CommandLine.Command;

/**
 * {@code stele backup-location …}: BackupStorageLocation resources, as Velero's {@code velero
 * backup-location}.
 */
@Command(
    name = "backup-location",
    description =
        "Create, list, change and delete the BackupStorageLocations of a cluster (the buckets the"
            + " operator keeps repositories in).",
    subcommands = {
      BackupLocationCreateCommand.class,
      BackupLocationGetCommand.class,
      BackupLocationSetCommand.class,
      BackupLocationDeleteCommand.class,
    })
public final class BackupLocationCommand extends GroupCommand {}
