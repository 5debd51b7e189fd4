package dev.stele.cli.cluster;

import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The blocks {@code backup describe} and {@code restore describe} print alike: name and metadata,
 * phase and counts, the namespace and resource filters, the times, and the pod volumes with their
 * counts. Each command adds what only its resource has.
 */
final class Describe {
  /** One pod volume of a backup or restore, from its PodVolumeBackup or PodVolumeRestore. */
  record Volume(PodRef pod, String volume, PodVolumeStatus status, String snapshotID) {
    String path() {
      return (pod == null ? "?/?" : pod.namespace + "/" + pod.name) + "/" + volume;
    }
  }

  private Describe() {}

  /** Name, namespace, labels, annotations; then phase and message; then errors and warnings. */
  static void header(
      Details d,
      HasMetadata resource,
      String namespace,
      Enum<?> phase,
      String message,
      Integer errors,
      Integer warnings) {
    metadata(d, resource, namespace);
    d.field("Phase", BackupGetCommand.phase(phase));
    if (message != null && !message.isBlank()) {
      d.field("Message", message);
    }
    d.end();
    d.field("Errors", errors == null ? 0 : errors);
    d.field("Warnings", warnings == null ? 0 : warnings);
  }

  /** Name, namespace, labels, annotations, as a block. */
  static void metadata(Details d, HasMetadata resource, String namespace) {
    d.field("Name", resource.getMetadata().getName());
    d.field("Namespace", namespace);
    d.field("Labels", pairs(resource.getMetadata().getLabels()));
    d.field("Annotations", pairs(resource.getMetadata().getAnnotations()));
    d.end();
  }

  /**
   * What a backup spec selects and where it goes: the filters, then selector, location, repository,
   * ttl and fs backup default. {@code location} and {@code repository} are what to show for them.
   */
  static void backupSpec(Details d, BackupSpec spec, String location, String repository) {
    filters(
        d,
        spec.includedNamespaces,
        spec.excludedNamespaces,
        spec.includedResources,
        spec.excludedResources,
        spec.includeClusterResources);
    d.field("Label selector", KubeNames.selector(spec.labelSelector));
    d.field("Storage location", location);
    d.field("Repository", repository);
    d.field("TTL", spec.ttl != null ? spec.ttl : "720h (default)");
    d.field("Default volumes to fs backup", Boolean.TRUE.equals(spec.defaultVolumesToFsBackup));
    d.end();
  }

  /** The Namespaces and Resources blocks of a spec's filters. */
  static void filters(
      Details d,
      List<String> includedNamespaces,
      List<String> excludedNamespaces,
      List<String> includedResources,
      List<String> excludedResources,
      Boolean includeClusterResources) {
    d.heading("Namespaces");
    d.field("Included", KubeNames.list(includedNamespaces, "*"));
    d.field("Excluded", KubeNames.list(excludedNamespaces, "<none>"));
    d.heading("Resources");
    d.field("Included", KubeNames.list(includedResources, "*"));
    d.field("Excluded", KubeNames.list(excludedResources, "<none>"));
    d.field(
        "Cluster-scoped", Boolean.FALSE.equals(includeClusterResources) ? "excluded" : "included");
    d.end();
  }

  /** Created, Started, Completed, as a block. */
  static void times(Details d, HasMetadata resource, String started, String completed) {
    d.field("Created", Format.apiTime(resource.getMetadata().getCreationTimestamp()));
    d.field("Started", Format.apiTime(started));
    d.field("Completed", Format.apiTime(completed));
    d.end();
  }

  /**
   * The volumes as a table under a heading with the status's counts, or one Volumes line when there
   * are none.
   */
  static void volumes(
      Details d, Integer selected, Integer completed, Integer failed, List<Volume> volumes) {
    String counts =
        selected == null
            ? ""
            : selected
                + " selected, "
                + (completed == null ? 0 : completed)
                + " completed, "
                + (failed == null ? 0 : failed)
                + " failed";
    if (volumes.isEmpty()) {
      d.end();
      d.field("Volumes", counts.isEmpty() ? "<none>" : counts);
      return;
    }
    d.heading("Volumes" + (counts.isEmpty() ? "" : " (" + counts + ")"));
    Table t = new Table("VOLUME", "PHASE", "BYTES", "SNAPSHOT", "MESSAGE");
    for (Volume v : volumes.stream().sorted(Comparator.comparing(Volume::path)).toList()) {
      PodVolumeStatus s = v.status() == null ? new PodVolumeStatus() : v.status();
      t.row(
          v.path(),
          BackupGetCommand.phase(s.phase),
          bytes(s),
          v.snapshotID() == null ? "-" : shortId(v.snapshotID()),
          s.message == null ? "" : s.message);
    }
    t.lines().forEach(d::line);
  }

  private static String pairs(Map<String, String> map) {
    if (map == null || map.isEmpty()) {
      return "<none>";
    }
    StringBuilder s = new StringBuilder();
    map.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                s.append(s.isEmpty() ? "" : ",")
                    .append(e.getKey())
                    .append('=')
                    .append(e.getValue()));
    return s.toString();
  }

  /** The first 8 hex digits, enough for {@code stele ls} and {@code stele restore}. */
  static String shortId(String id) {
    return id.length() > 8 ? id.substring(0, 8) : id;
  }

  static String bytes(PodVolumeStatus v) {
    if (v.bytesDone == null) {
      return "-";
    }
    return Format.bytes(v.bytesDone)
        + (v.bytesTotal != null && !v.bytesTotal.equals(v.bytesDone)
            ? " of " + Format.bytes(v.bytesTotal)
            : "");
  }
}
