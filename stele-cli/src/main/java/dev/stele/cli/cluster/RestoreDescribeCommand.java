package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import java.util.Comparator;
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
    BackupDescribeCommand.metadata(
        d,
        name,
        namespace,
        restore.getMetadata().getLabels(),
        restore.getMetadata().getAnnotations());
    d.field("Phase", BackupGetCommand.phase(s.phase));
    if (s.message != null && !s.message.isBlank()) {
      d.field("Message", s.message);
    }
    d.end();
    d.field("Errors", s.errors == null ? 0 : s.errors);
    d.field("Warnings", s.warnings == null ? 0 : s.warnings);
    d.end();
    d.field("Backup", spec.backupName);
    d.heading("Namespaces");
    d.field("Included", KubeNames.list(spec.includedNamespaces, "*"));
    d.field("Excluded", KubeNames.list(spec.excludedNamespaces, "<none>"));
    d.heading("Resources");
    d.field("Included", KubeNames.list(spec.includedResources, "*"));
    d.field("Excluded", KubeNames.list(spec.excludedResources, "<none>"));
    d.field(
        "Cluster-scoped",
        Boolean.FALSE.equals(spec.includeClusterResources) ? "excluded" : "included");
    d.end();
    d.field("Namespace mappings", mappings(spec.namespaceMapping));
    d.field("Label selector", KubeNames.selector(spec.labelSelector));
    d.field(
        "Existing resource policy",
        spec.existingResourcePolicy == null ? "none" : spec.existingResourcePolicy);
    d.field("Restore volumes", !Boolean.FALSE.equals(spec.restorePVs));
    d.end();
    d.field("Created", Format.apiTime(restore.getMetadata().getCreationTimestamp()));
    d.field("Started", Format.apiTime(s.startTimestamp));
    d.field("Completed", Format.apiTime(s.completionTimestamp));
    d.end();
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
    List<PodVolumeRestore> pvrs =
        client.resources(PodVolumeRestore.class).inNamespace(namespace).list().getItems().stream()
            .filter(p -> p.getSpec() != null && name.equals(p.getSpec().restoreName))
            .filter(
                p ->
                    uid == null
                        || p.getSpec().restoreUID == null
                        || uid.equals(p.getSpec().restoreUID))
            .sorted(Comparator.comparing(RestoreDescribeCommand::volumePath))
            .toList();
    String counts =
        s.volumes == null
            ? ""
            : s.volumes
                + " selected, "
                + (s.volumesCompleted == null ? 0 : s.volumesCompleted)
                + " completed, "
                + (s.volumesFailed == null ? 0 : s.volumesFailed)
                + " failed";
    if (pvrs.isEmpty()) {
      d.end();
      d.field("Volumes", counts.isEmpty() ? "<none>" : counts);
      return;
    }
    d.heading("Volumes" + (counts.isEmpty() ? "" : " (" + counts + ")"));
    Table t = new Table("VOLUME", "PHASE", "BYTES", "SNAPSHOT", "MESSAGE");
    for (PodVolumeRestore p : pvrs) {
      PodVolumeStatus v = p.getStatus() == null ? new PodVolumeStatus() : p.getStatus();
      String snapshot = p.getSpec().snapshotID;
      t.row(
          volumePath(p),
          BackupGetCommand.phase(v.phase),
          BackupDescribeCommand.bytes(v),
          snapshot == null ? "-" : BackupDescribeCommand.shortId(snapshot),
          v.message == null ? "" : v.message);
    }
    t.lines().forEach(d::line);
  }

  private static String volumePath(PodVolumeRestore p) {
    var pod = p.getSpec().pod;
    return (pod == null ? "?/?" : pod.namespace + "/" + pod.name) + "/" + p.getSpec().volume;
  }
}
