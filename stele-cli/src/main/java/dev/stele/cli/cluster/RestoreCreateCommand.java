package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestStatus;
import dev.stele.k8s.api.DeletionPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.TypedLocalObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore create [NAME] --from-backup B}: a Restore resource; the operator recreates
 * the backup's objects (and fills its pod volumes) in this cluster. The backup must exist, have
 * finished with its data written (Completed or PartiallyFailed) and not be being deleted (a
 * DeleteBackupRequest names it); nothing is created otherwise. A backup deleted in another cluster
 * on the same repository, before sync removed it here, is refused by the operator
 * (FailedValidation), which {@code --wait} prints.
 */
@Command(
    name = "create",
    description = "Create a Restore of a Backup; the operator recreates what it selects.",
    resourceBundle = "dev.stele.cli.cluster.RestoreCreateCommand")
public final class RestoreCreateCommand extends ClusterCommand {
  private static final DateTimeFormatter SUFFIX =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  @Parameters(
      paramLabel = "NAME",
      arity = "0..1",
      description = "The Restore's name (default: <backup>-<yyyyMMddHHmmss>, in UTC).")
  String name;

  @Option(
      names = "--from-backup",
      required = true,
      paramLabel = "BACKUP",
      description = "The Backup to restore.")
  String backup;

  @Option(
      names = "--namespace-mappings",
      split = ",",
      paramLabel = "OLD:NEW",
      description = "Restore namespace OLD into NEW, such as prod:staging.")
  List<String> mappings;

  @Mixin FilterOptions filters;

  @Option(
      names = "--existing-resource-policy",
      paramLabel = "none|update",
      description =
          "An object that already exists: none leaves it (default, a warning), update replaces it.")
  String existingResourcePolicy;

  @Option(
      names = "--restore-volumes",
      arity = "1",
      paramLabel = "true|false",
      description = "Whether pod volume data is restored (default: true).")
  Boolean restoreVolumes;

  @Option(
      names = "--resource-modifier-configmap",
      paramLabel = "CONFIGMAP",
      description =
          "A ConfigMap in the Restore's namespace whose one key holds resource modifier rules"
              + " (Velero's format), applied to each object before it is restored.")
  String resourceModifierConfigMap;

  @Mixin WaitOptions wait;

  @Override
  int run() throws Exception {
    KubeNames.resourceName("--from-backup", backup);
    RestoreSpec spec = spec();
    Duration interval = wait.interval();
    String restore =
        KubeNames.resourceName(
            "restore name",
            name != null ? name : backup + "-" + SUFFIX.format(env().clock().instant()));
    Backup from = get(Backup.class, backup);
    String deletion = deletion(from != null);
    if (from == null) {
      throw CliException.notFound(
          "backup "
              + backup
              + " does not exist in namespace "
              + namespace
              + (deletion == null ? "" : ": it was deleted by DeleteBackupRequest " + deletion));
    }
    if (deletion != null) {
      throw new CliException(
          ExitCode.ERROR,
          "backup "
              + backup
              + " is being deleted by DeleteBackupRequest "
              + deletion
              + ": it cannot be restored");
    }
    if (spec.resourceModifier != null) {
      require(ConfigMap.class, "configmap", spec.resourceModifier.getName());
    }
    RunPhase phase = from.getStatus() == null ? null : from.getStatus().phase;
    if (phase == RunPhase.FAILED) {
      throw new CliException(
          ExitCode.ERROR, "backup " + backup + " failed: it holds nothing to restore");
    }
    if (!PhaseWait.isFinal(phase)) {
      throw new CliException(
          ExitCode.ERROR,
          "backup "
              + backup
              + " is "
              + BackupGetCommand.phase(phase)
              + ": restore it once it is Completed or PartiallyFailed");
    }
    Restore r = new Restore();
    r.setMetadata(new ObjectMetaBuilder().withName(restore).withNamespace(namespace).build());
    r.setSpec(spec);
    create(r, "restore");
    out().printf("Restore request \"%s\" submitted to namespace %s.%n", restore, namespace);
    String describe = "stele restore describe " + restore + namespaceFlag();
    if (!wait.wait) {
      out().printf("Run '%s' for details.%n", describe);
      return ExitCode.OK;
    }
    PhaseWait.State end =
        PhaseWait.await(
            "restore",
            restore,
            () -> {
              Restore x = get(Restore.class, restore);
              return x == null
                  ? null
                  : x.getStatus() == null
                      ? new PhaseWait.State(null, null)
                      : new PhaseWait.State(x.getStatus().phase, x.getStatus().message);
            },
            interval,
            out());
    return PhaseWait.outcome("restore", restore, end, describe, out(), err());
  }

  /**
   * The DeleteBackupRequest deleting the backup, or null: for a Backup that still exists, one not
   * processed yet; for one that is gone, one that did not fail. Null too when requests cannot be
   * listed: then the operator's answer (FailedValidation, printed by {@code --wait}) says it.
   */
  private String deletion(boolean exists) {
    List<DeleteBackupRequest> requests;
    try {
      requests =
          client.resources(DeleteBackupRequest.class).inNamespace(namespace).list().getItems();
    } catch (KubernetesClientException e) {
      return null;
    }
    for (DeleteBackupRequest r : requests) {
      DeleteBackupRequestStatus s = r.getStatus();
      boolean processed = s != null && s.phase == DeletionPhase.PROCESSED;
      boolean failed = processed && (s.tombstones == null || s.tombstones.isEmpty());
      if (r.getSpec() != null
          && backup.equals(r.getSpec().backupName)
          && (exists ? !processed : !failed)) {
        return r.getMetadata().getName();
      }
    }
    return null;
  }

  private RestoreSpec spec() {
    RestoreSpec spec = new RestoreSpec();
    spec.backupName = backup;
    spec.namespaceMapping = KubeNames.mappings("--namespace-mappings", mappings);
    spec.includedNamespaces = filters.includedNamespaces();
    spec.excludedNamespaces = filters.excludedNamespaces();
    spec.includedResources = filters.includedResources();
    spec.excludedResources = filters.excludedResources();
    spec.includeClusterResources = filters.includeClusterResources();
    spec.labelSelector = filters.labelSelector();
    spec.orLabelSelectors = filters.orLabelSelectors();
    if (resourceModifierConfigMap != null) {
      spec.resourceModifier =
          new TypedLocalObjectReferenceBuilder()
              .withKind("ConfigMap")
              .withName(
                  KubeNames.resourceName(
                      "--resource-modifier-configmap", resourceModifierConfigMap))
              .build();
    }
    if (existingResourcePolicy != null) {
      String p = existingResourcePolicy.strip().toLowerCase(Locale.ROOT);
      if (!p.equals("none") && !p.equals("update")) {
        throw CliException.usage(
            "--existing-resource-policy " + existingResourcePolicy + ": use none or update");
      }
      spec.existingResourcePolicy = p;
    }
    spec.restorePVs = restoreVolumes;
    return spec;
  }
}
