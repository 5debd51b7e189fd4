package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore describe NAME}: what the Restore's spec asks and its status holds, with its
 * pod volumes (from its PodVolumeRestores).
 */
@Command(name = "describe", description = "Show a Restore: phase, times, filters, volumes.")
public final class RestoreDescribeCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Restore.")
  String name;

  @Override
  int run() {
    Restore restore = require(Restore.class, "restore", name);
    RestoreSpec spec = restore.getSpec() == null ? new RestoreSpec() : restore.getSpec();
    RestoreStatus s = restore.getStatus() == null ? new RestoreStatus() : restore.getStatus();
    Details d = new Details(out());
    Describe.header(d, restore, namespace, s.phase, s.message, s.errors, s.warnings);
    d.end();
    d.field("Backup", spec.backupName);
    Describe.filters(
        d,
        spec.includedNamespaces,
        spec.excludedNamespaces,
        spec.includedResources,
        spec.excludedResources,
        spec.includeClusterResources);
    d.field("Namespace mappings", mappings(spec.namespaceMapping));
    d.field("Label selector", KubeNames.selector(spec.labelSelector));
    d.field(
        "Existing resource policy",
        spec.existingResourcePolicy == null ? "none" : spec.existingResourcePolicy);
    d.field("Restore volumes", !Boolean.FALSE.equals(spec.restorePVs));
    d.end();
    Describe.times(d, restore, s.startTimestamp, s.completionTimestamp);
    d.field("Items restored", s.itemsRestored == null ? "-" : s.itemsRestored);
    d.field("Items skipped (existed)", s.itemsSkipped == null ? "-" : s.itemsSkipped);
    d.field("Results snapshot", s.resultsSnapshotID);
    volumes(d, restore, s);
    d.end();
    return ExitCode.OK;
  }

  private static String mappings(Map<String, String> map) {
    if (map == null || map.isEmpty()) {
      return "<none>";
    }
    return map.entrySet().stream()
        .map(e -> e.getKey() + ":" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private void volumes(Details d, Restore restore, RestoreStatus s) {
    String uid = restore.getMetadata().getUid();
    List<Describe.Volume> volumes =
        client.resources(PodVolumeRestore.class).inNamespace(namespace).list().getItems().stream()
            .filter(p -> p.getSpec() != null && name.equals(p.getSpec().restoreName))
            .filter(
                p ->
                    uid == null
                        || p.getSpec().restoreUID == null
                        || uid.equals(p.getSpec().restoreUID))
            .map(
                p ->
                    new Describe.Volume(
                        p.getSpec().pod, p.getSpec().volume, p.getStatus(), p.getSpec().snapshotID))
            .toList();
    Describe.volumes(d, s.volumes, s.volumesCompleted, s.volumesFailed, volumes);
  }
}
