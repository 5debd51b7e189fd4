package dev.stele.cli.cluster;

import dev.stele.cli.GroupCommand;
import picocli.CommandLine.Command;

/** {@code stele backup …}: Backup resources in a cluster, as Velero's {@code velero backup}. */
@Command(
    name = "backup",
    description =
        "Create, list, describe and delete the Backups of a cluster, read their logs and"
            + " download their resources (the kubeconfig's cluster; the operator does the work).",
    subcommands = {
      BackupCreateCommand.class,
      BackupGetCommand.class,
      BackupDescribeCommand.class,
      BackupLogsCommand.class,
      BackupDownloadCommand.class,
      BackupDeleteCommand.class,
    })
public final class BackupCommand extends GroupCommand {}
