package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.Schedule;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup create NAME}: a Backup resource with the spec the options describe. A named
 * repository or location must exist; nothing is created when anything is wrong.
 */
@Command(
    name = "create",
    description = "Create a Backup; the operator backs up what it selects into a repository.")
final class BackupCreateCommand extends ClusterCommand {
  @Parameters(
      paramLabel = "NAME",
      arity = "0..1",
      description =
          "The Backup's name (required, except with --from-schedule: <schedule>-<yyyyMMddHHmmss>).")
  String name;

  @Option(
      names = "--from-schedule",
      paramLabel = "SCHEDULE",
      description = "Back up now what the Schedule's template says, as the Schedule would.")
  String fromSchedule;

  @Mixin BackupSpecOptions options;
  @Mixin WaitOptions wait;

  @Override
  int run() throws Exception {
    if (name == null && fromSchedule == null) {
      throw CliException.usage("name the backup (NAME), or give --from-schedule");
    }
    if (name != null) {
      KubeNames.resourceName("backup name", name);
    }
    BackupSpec spec = options.spec();
    Duration interval = wait.interval();
    Backup backup;
    if (fromSchedule != null) {
      Schedule schedule = require(Schedule.class, "schedule", fromSchedule);
      backup =
          FromSchedule.backup(
              schedule,
              name,
              client.getKubernetesSerialization().asJson(spec),
              env().clock().instant());
      spec = backup.getSpec();
    } else {
      backup = new Backup();
      backup.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
      backup.setSpec(spec);
    }
    if (spec.repository != null) {
      require(BackupStorageLocationRepository.class, "repository", spec.repository);
    }
    if (spec.storageLocation != null) {
      require(BackupStorageLocation.class, "storage location", spec.storageLocation);
    }
    create(backup, "backup");
    name = backup.getMetadata().getName();
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
