package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup describe NAME}: what the Backup's status and spec hold, its pod volumes (from
 * its PodVolumeBackups) and its retention (the expiry, and the lock its location gives every blob).
 */
@Command(name = "describe", description = "Show a Backup: phase, times, filters, volumes.")
final class BackupDescribeCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup.")
  String name;

  @Override
  int run() {
    Backup backup = require(Backup.class, "backup", name);
    BackupSpec spec = backup.getSpec() == null ? new BackupSpec() : backup.getSpec();
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    Details d = new Details(out());
    metadata(
        d,
        backup.getMetadata().getName(),
        namespace,
        backup.getMetadata().getLabels(),
        backup.getMetadata().getAnnotations());
    d.field("Phase", BackupGetCommand.phase(s.phase));
    if (s.message != null && !s.message.isBlank()) {
      d.field("Message", s.message);
    }
    d.end();
    d.field("Errors", s.errors == null ? 0 : s.errors);
    d.field("Warnings", s.warnings == null ? 0 : s.warnings);
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
    d.field("Label selector", KubeNames.selector(spec.labelSelector));
    String location = location(spec, s);
    d.field("Storage location", location);
    d.field(
        "Repository",
        s.repository != null
            ? s.repository
            : spec.repository != null ? spec.repository : "<the location's default>");
    d.field("TTL", spec.ttl != null ? spec.ttl : "720h (default)");
    d.field("Default volumes to fs backup", Boolean.TRUE.equals(spec.defaultVolumesToFsBackup));
    d.end();
    d.field("Created", Format.apiTime(backup.getMetadata().getCreationTimestamp()));
    d.field("Started", Format.apiTime(s.startTimestamp));
    d.field("Completed", Format.apiTime(s.completionTimestamp));
    d.end();
    d.field("Items backed up", s.items == null ? "-" : s.items);
    if (s.chunksNew != null) {
      d.field("Chunks added", s.chunksNew);
    }
    d.end();
    d.field("Snapshot", s.snapshotID);
    d.field("Manifest", s.manifest);
    d.field("Resources snapshot", s.resourcesSnapshotID);
    retention(d, s, location);
    volumes(d, backup, s);
    d.end();
    return ExitCode.OK;
  }

  static void metadata(
      Details d,
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations) {
    d.field("Name", name);
    d.field("Namespace", namespace);
    d.field("Labels", pairs(labels));
    d.field("Annotations", pairs(annotations));
    d.end();
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

  /** The location the backup went to: its repository's, else the one its spec names. */
  private String location(BackupSpec spec, BackupStatus s) {
    String repository = s.repository != null ? s.repository : spec.repository;
    if (repository != null) {
      BackupStorageLocationRepository r = get(BackupStorageLocationRepository.class, repository);
      if (r != null && r.getSpec() != null && r.getSpec().backupStorageLocation != null) {
        return r.getSpec().backupStorageLocation;
      }
    }
    return spec.storageLocation != null ? spec.storageLocation : "default";
  }

  private void retention(Details d, BackupStatus s, String location) {
    d.heading("Retention");
    Instant expires = Format.instant(s.expiration);
    Instant now = env().clock().instant();
    d.field(
        "Expires",
        expires == null
            ? "-"
            : Format.apiTime(s.expiration)
                + (expires.isAfter(now)
                    ? " (in " + Format.age(Duration.between(now, expires)) + ")"
                    : " (expired)"));
    BackupStorageLocation bsl = get(BackupStorageLocation.class, location);
    BackupStorageLocationStatus ls = bsl == null ? null : bsl.getStatus();
    d.field("Location", location + (bsl == null ? " (does not exist)" : ""));
    if (ls == null || ls.lock == null) {
      d.field("Lock", "unknown: the location has not been validated");
    } else {
      d.field(
          "Lock",
          ls.lock
              + " (versioning "
              + Objects.requireNonNullElse(ls.versioning, "unknown")
              + ", bucket default rule "
              + Objects.requireNonNullElse(ls.defaultRetention, "unknown")
              + ")");
    }
  }

  private void volumes(Details d, Backup backup, BackupStatus s) {
    String uid = backup.getMetadata().getUid();
    List<PodVolumeBackup> pvbs =
        client.resources(PodVolumeBackup.class).inNamespace(namespace).list().getItems().stream()
            .filter(p -> p.getSpec() != null && name.equals(p.getSpec().backupName))
            .filter(
                p ->
                    uid == null
                        || p.getSpec().backupUID == null
                        || uid.equals(p.getSpec().backupUID))
            .sorted(Comparator.comparing(BackupDescribeCommand::volumePath))
            .toList();
    String counts =
        s.volumes == null
            ? ""
            : " "
                + s.volumes
                + " selected, "
                + (s.volumesCompleted == null ? 0 : s.volumesCompleted)
                + " completed, "
                + (s.volumesFailed == null ? 0 : s.volumesFailed)
                + " failed";
    if (pvbs.isEmpty()) {
      d.end();
      d.field("Volumes", counts.isEmpty() ? "<none>" : counts.strip());
      return;
    }
    d.heading("Volumes" + (counts.isEmpty() ? "" : " (" + counts.strip() + ")"));
    Table t = new Table("VOLUME", "PHASE", "BYTES", "SNAPSHOT", "MESSAGE");
    for (PodVolumeBackup p : pvbs) {
      PodVolumeStatus v = p.getStatus() == null ? new PodVolumeStatus() : p.getStatus();
      t.row(
          volumePath(p),
          BackupGetCommand.phase(v.phase),
          bytes(v),
          v.snapshotID == null ? "-" : shortId(v.snapshotID),
          v.message == null ? "" : v.message);
    }
    t.lines().forEach(d::line);
  }

  private static String volumePath(PodVolumeBackup p) {
    var pod = p.getSpec().pod;
    return (pod == null ? "?/?" : pod.namespace + "/" + pod.name) + "/" + p.getSpec().volume;
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
