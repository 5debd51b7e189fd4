package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.operator.BackupRepository;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup download NAME}: the backup's API objects as a {@code .tar.gz}, as Velero's
 * {@code backup download}. They are the {@code resources/} directory of the backup's snapshot
 * ({@code resources/<group or core>/<resource>/<namespace or _cluster>/<name>.json}, docs/format.md
 * §10), streamed from the repository, opened from this machine as {@code backup logs} opens it. The
 * archive is written under a temporary name and moved into place whole.
 */
@Command(
    name = "download",
    description =
        "Download a Backup's resources (one JSON file per object) as a .tar.gz, read from its"
            + " snapshot in the repository.")
final class BackupDownloadCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup.")
  String name;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "The file to write (default: NAME-data.tar.gz in the current directory).")
  Path output;

  @Option(names = "--force", description = "Replace the file if it exists.")
  boolean force;

  @Override
  int run() throws Exception {
    Backup backup = require(Backup.class, "backup", name);
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (s.snapshotID == null) {
      throw CliException.notFound(
          "backup "
              + name
              + " has no snapshot"
              + (PhaseWait.isFinal(s.phase)
                  ? " (status.snapshotID), so there is nothing to download"
                  : " yet: it is "
                      + BackupGetCommand.phase(s.phase)
                      + ", and its resources are downloadable once it finishes"));
    }
    Path file = output != null ? output : Path.of(name + "-data.tar.gz");
    if (Files.exists(file) && !force) {
      throw new CliException(
          ExitCode.ERROR, file + " exists: give --force to replace it, or -o another file");
    }
    Path dir = file.toAbsolutePath().getParent();
    Path partial = Files.createTempFile(dir, "." + file.getFileName(), ".partial");
    int count;
    try {
      count =
          RepositoryReads.read(
              client, backup, env().clock(), repo -> write(repo, s.snapshotID, partial));
      Files.move(
          partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
    out().printf("Backup %s downloaded to %s (%d objects).%n", name, file, count);
    return ExitCode.OK;
  }

  private static int write(BackupRepository repo, String snapshot, Path file) throws IOException {
    List<SnapshotBrowser.Entry> files = repo.files(snapshot, BackupRepository.RESOURCES);
    try (OutputStream out = Files.newOutputStream(file);
        TarGzWriter tar = new TarGzWriter(out)) {
      for (SnapshotBrowser.Entry e : files) {
        try (OutputStream content =
            tar.file(e.path(), e.node().size(), e.node().mtimeNanos() / 1_000_000_000L)) {
          repo.cat(e.node(), content);
        }
      }
    }
    return files.size();
  }
}
