package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup create NAME}: a Backup resource with the spec the options describe. A named
 * repository or location must exist; nothing is created when anything is wrong.
 */
@Command(
    name = "create",
    description = "Create a Backup; the operator backs up what it selects into a repository.")
final class BackupCreateCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup's name.")
  String name;

  @Mixin BackupSpecOptions options;
  @Mixin WaitOptions wait;

  @Override
  int run() throws Exception {
    KubeNames.resourceName("backup name", name);
    BackupSpec spec = options.spec();
    Duration interval = wait.interval();
    if (spec.repository != null) {
      require(BackupStorageLocationRepository.class, "repository", spec.repository);
    }
    if (spec.storageLocation != null) {
      require(BackupStorageLocation.class, "storage location", spec.storageLocation);
    }
    Backup backup = new Backup();
    backup.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    backup.setSpec(spec);
    create(backup, "backup");
    out().printf("Backup request \"%s\" submitted to namespace %s.%n", name, namespace);
    String describe = "stele backup describe " + name + namespaceFlag();
    if (!wait.wait) {
      out()
          .printf(
              "Run '%s' or 'stele backup logs %s%s' for details.%n",
              describe, name, namespaceFlag());
      return ExitCode.OK;
    }
    PhaseWait.State end =
        PhaseWait.await(
            "backup",
            name,
            () -> {
              Backup b = get(Backup.class, name);
              return b == null
                  ? null
                  : b.getStatus() == null
                      ? new PhaseWait.State(null, null)
                      : new PhaseWait.State(b.getStatus().phase, b.getStatus().message);
            },
            interval,
            out());
    return PhaseWait.outcome("backup", name, end, describe, out(), err());
  }
}
