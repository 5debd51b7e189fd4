package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.operator.BackupRepository;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Clock;

/**
 * What the cluster commands read from a backup's repository rather than from the cluster (logs,
 * resources, restore results), with the failures as one line each: a file or directory that is not
 * there is not found (exit 4), a repository or location that cannot be used an error naming the
 * backup; a wrong password or damaged data as the repository commands report them.
 */
final class RepositoryReads {
  /** One read of an open repository. */
  interface Reading<T> {
    T read(BackupRepository repo) throws IOException;
  }

  private RepositoryReads() {}

  static <T> T read(KubernetesClient client, Backup backup, Clock clock, Reading<T> reading)
      throws IOException {
    try (BackupRepository repo = BackupRepository.open(client, backup, clock)) {
      return reading.read(repo);
    } catch (FileNotFoundException e) {
      throw CliException.notFound(e.getMessage());
    } catch (InvalidResourceException e) {
      throw new CliException(
          ExitCode.ERROR, "backup " + backup.getMetadata().getName() + ": " + e.getMessage());
    }
  }
}
