package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.BackupRepository;
import java.io.OutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup logs NAME}: the {@code backup.log} at the root of the backup's snapshot. The
 * log lives in the repository, not in the cluster, so this command opens the repository itself,
 * from this machine, the way the operator does: the location and repository resources and the
 * password Secret are read through the API ({@link BackupRepository}), the bucket is reached
 * directly.
 */
@Command(
    name = "logs",
    description =
        "Print a Backup's log, read from its snapshot in the repository (this machine must reach"
            + " the bucket; reading the password Secret needs get on Secrets).")
final class BackupLogsCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup.")
  String name;

  @Override
  int run() throws Exception {
    Backup backup = require(Backup.class, "backup", name);
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (s.snapshotID == null) {
      throw CliException.notFound(noLog(s));
    }
    out().flush();
    OutputStream stdout = env().stdout();
    RepositoryReads.read(
        client,
        backup,
        env().clock(),
        repo -> {
          repo.copy(s.snapshotID, BackupRepository.BACKUP_LOG, "backup " + name, stdout);
          return null;
        });
    stdout.flush();
    return ExitCode.OK;
  }

  private String noLog(BackupStatus s) {
    if (s.phase == RunPhase.FAILED) {
      return "backup "
          + name
          + " failed before its snapshot was written, so the repository holds no log of it"
          + (s.message == null ? "" : " (" + s.message + ")");
    }
    if (PhaseWait.isFinal(s.phase)) {
      return "backup " + name + " records no snapshot (status.snapshotID)";
    }
    return "backup "
        + name
        + " has no log yet: it is "
        + BackupGetCommand.phase(s.phase)
        + ", and its log is written with its snapshot when it finishes";
  }
}
