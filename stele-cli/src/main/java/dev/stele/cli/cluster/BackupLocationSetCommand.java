package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup-location set NAME …}: changes what may change in a BackupStorageLocation —
 * credentials, certificates, access mode, validation frequency, provider settings, the lock — and
 * refuses what may not: the provider, bucket and prefix say where its repositories are.
 */
@Command(
    name = "set",
    description =
        "Change a BackupStorageLocation's credentials, settings, access mode or lock (not where it"
            + " is).")
final class BackupLocationSetCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The location.")
  String name;

  @Option(
      names = {"--provider", "--bucket", "--prefix"},
      hidden = true,
      paramLabel = "VALUE")
  String where;

  @Mixin LocationOptions options;

  @Override
  int run() {
    if (where != null) {
      throw CliException.usage(
          "a location's provider, bucket and prefix say where its repositories are and cannot"
              + " change: create another location");
    }
    List<String> given = options.given();
    if (given.isEmpty() && !options.isDefault) {
      throw CliException.usage(
          "nothing to change: give --credential, --cacert-secret, --access-mode,"
              + " --validation-frequency, --config, --lock-mode or --min-retention");
    }
    BackupStorageLocation bsl =
        require(BackupStorageLocation.class, "backup storage location", name);
    BackupStorageLocationSpec spec = bsl.getSpec();
    options.applyTo(name, spec);
    // A merge patch of the spec: the operator's status writes in between cannot make it fail with
    // a conflict, as a read-modify-write edit would. The options only add or replace fields.
    client
        .resources(BackupStorageLocation.class)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(Map.of("spec", spec)));
    out()
        .printf(
            "Backup storage location \"%s\" updated%s.%n",
            name, given.isEmpty() ? " (nothing changed)" : ": " + String.join(", ", given));
    return ExitCode.OK;
  }
}
