package dev.stele.cli.cluster;

import dev.stele.cli.GroupCommand;
import picocli.CommandLine.Command;

/**
 * {@code stele repository …}: BackupStorageLocationRepository resources, as Velero's {@code velero
 * repo} (Stele's {@code repo} is the repository commands of this machine).
 */
@Command(
    name = "repository",
    description =
        "List the BackupStorageLocationRepositories of a cluster (the repositories the operator"
            + " keeps in its locations).",
    subcommands = {RepositoryGetCommand.class})
public final class RepositoryCommand extends GroupCommand {}
