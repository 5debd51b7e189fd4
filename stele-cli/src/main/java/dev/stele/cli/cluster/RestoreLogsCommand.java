package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.operator.BackupRepository;
import java.io.OutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore logs NAME}: the {@code restore.log} of the Restore's results snapshot
 * ({@code status.resultsSnapshotID}), which the operator writes once, when the restore ends, into
 * the repository of the Backup restored. Read from this machine, as {@code backup logs} reads.
 */
@Command(
    name = "logs",
    description =
        "Print a Restore's log, read from its results in the backup's repository (this machine"
            + " must reach the bucket; reading the password Secret needs get on Secrets).")
public final class RestoreLogsCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Restore.")
  String name;

  @Override
  int run() throws Exception {
    Restore restore = require(Restore.class, "restore", name);
    Backup backup = backupOf(this, restore);
    RestoreStatus s = restore.getStatus() == null ? new RestoreStatus() : restore.getStatus();
    out().flush();
    OutputStream stdout = env().stdout();
    RepositoryReads.read(
        client,
        backup,
        env().clock(),
        repo -> {
          repo.copy(s.resultsSnapshotID, BackupRepository.RESTORE_LOG, "restore " + name, stdout);
          return null;
        });
    stdout.flush();
    return ExitCode.OK;
  }

  /**
   * The Backup whose repository holds the restore's results; a not-found failure when there are no
   * results yet or the Backup is gone.
   */
  static Backup backupOf(ClusterCommand command, Restore restore) {
    String name = restore.getMetadata().getName();
    RestoreStatus s = restore.getStatus() == null ? new RestoreStatus() : restore.getStatus();
    if (s.resultsSnapshotID == null) {
      throw CliException.notFound(
          PhaseWait.isFinal(s.phase)
              ? "restore " + name + " records no results snapshot (status.resultsSnapshotID)"
              : "restore "
                  + name
                  + " has no log yet: it is "
                  + BackupGetCommand.phase(s.phase)
                  + ", and its log is written with its results when it finishes");
    }
    String backupName = restore.getSpec() == null ? null : restore.getSpec().backupName;
    Backup backup = backupName == null ? null : command.get(Backup.class, backupName);
    if (backup == null) {
      throw CliException.notFound(
          "restore "
              + name
              + "'s results are in the repository of backup "
              + backupName
              + ", which no longer exists in namespace "
              + command.namespace);
    }
    return backup;
  }
}
