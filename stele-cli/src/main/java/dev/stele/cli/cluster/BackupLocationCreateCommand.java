package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.Provider;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup-location create NAME --provider s3 --bucket B}: a BackupStorageLocation, as
 * Velero's {@code backup-location create}. Velero's provider {@code aws} is Stele's {@code s3}.
 */
@Command(
    name = "create",
    description =
        "Create a BackupStorageLocation: a bucket (and prefix) that the operator checks and keeps"
            + " repositories in.")
final class BackupLocationCreateCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The location's name.")
  String name;

  @Option(
      names = "--provider",
      required = true,
      paramLabel = "PROVIDER",
      description = "s3 (Velero's aws) or filesystem (a directory mounted into the operator).")
  String provider;

  @Option(names = "--bucket", required = true, paramLabel = "BUCKET", description = "The bucket.")
  String bucket;

  @Option(
      names = "--prefix",
      paramLabel = "PREFIX",
      description = "Key prefix; repositories live under PREFIX/repositories/<name>/.")
  String prefix;

  @Option(
      names = "--no-default-repository",
      description = "Do not create a repository named after the location.")
  boolean noDefaultRepository;

  @Mixin LocationOptions options;

  @Override
  int run() {
    KubeNames.resourceName("location name", name);
    BackupStorageLocationSpec spec = new BackupStorageLocationSpec();
    String p = provider.strip().toLowerCase(Locale.ROOT);
    spec.provider =
        p.equals("aws")
            ? Provider.S3.value()
            : LocationOptions.choice("--provider", p, Provider.values()).value();
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = bucket(bucket);
    spec.objectStorage.prefix = prefix == null ? null : prefix(prefix);
    options.applyTo(name, spec);
    if (spec.provider.equals(Provider.FILESYSTEM.value())
        && (spec.config == null || !spec.config.containsKey("path"))) {
      throw CliException.usage(
          "--provider filesystem needs --config path=DIR, the directory holding the bucket");
    }
    spec.createDefaultRepository = noDefaultRepository ? Boolean.FALSE : null;
    BackupStorageLocation bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    bsl.setSpec(spec);
    create(bsl, "backup storage location");
    out()
        .printf(
            "Backup storage location \"%s\" created in namespace %s; 'stele backup-location get"
                + " %s%s' shows when the operator has checked it.%n",
            name, namespace, name, namespaceFlag());
    return ExitCode.OK;
  }

  private static String bucket(String text) {
    String b = text.strip();
    if (!b.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw CliException.usage(
          "--bucket " + text + ": not a bucket name (3-63 lower-case letters, digits, '.', '-')");
    }
    return b;
  }

  private static String prefix(String text) {
    String p = text.strip().replaceAll("^/+|/+$", "");
    if (!p.matches("([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*")) {
      throw CliException.usage(
          "--prefix " + text + ": use letters, digits, '.', '_', '-' in /-separated parts");
    }
    return p;
  }
}
