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
import dev.stele.operator.BackupRepository;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup describe NAME}: what the Backup's status and spec hold, its pod volumes (from
 * its PodVolumeBackups) and its retention (the expiry, and the lock its location gives every blob).
 */
@Command(name = "describe", description = "Show a Backup: phase, times, filters, volumes.")
final class BackupDescribeCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup.")
  String name;

  @Option(
      names = "--details",
      description =
          "Also list every object backed up, read from the backup's snapshot in the repository"
              + " (as backup logs reads it).")
  boolean details;

  @Mixin OutputOption output;

  @Override
  int run() throws IOException {
    boolean text = output.text();
    Backup backup = require(Backup.class, "backup", name);
    if (!text) {
      output.print(client, out(), List.of(backup), true);
      return ExitCode.OK;
    }
    BackupSpec spec = backup.getSpec() == null ? new BackupSpec() : backup.getSpec();
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    Details d = new Details(out());
    Describe.header(d, backup, namespace, s.phase, s.message, s.errors, s.warnings);
    String location = location(spec, s);
    Describe.backupSpec(
        d,
        spec,
        location,
        s.repository != null
            ? s.repository
            : spec.repository != null ? spec.repository : "<the location's default>");
    Describe.times(d, backup, s.startTimestamp, s.completionTimestamp);
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
    if (details) {
      resources(d, backup, s);
    }
    return ExitCode.OK;
  }

  /**
   * Velero's Resource List: the objects in the snapshot's {@code resources/}, by type, from the
   * paths alone ({@code resources/<group or core>/<resource>/<namespace or _cluster>/<name>.json}).
   */
  private void resources(Details d, Backup backup, BackupStatus s) throws IOException {
    String snapshot = s.snapshotID != null ? s.snapshotID : s.resourcesSnapshotID;
    if (snapshot == null) {
      d.field("Resource list", "<none yet: the backup has no snapshot>");
      d.end();
      return;
    }
    List<SnapshotBrowser.Entry> files =
        RepositoryReads.read(
            client,
            backup,
            env().clock(),
            repo -> repo.files(snapshot, BackupRepository.RESOURCES));
    Map<String, List<String>> byType = new TreeMap<>();
    for (SnapshotBrowser.Entry e : files) {
      String[] p = e.path().split("/", -1);
      if (p.length != 5) {
        continue;
      }
      String type = p[1].equals("core") ? p[2] : p[2] + "." + p[1];
      String object = p[4].replaceFirst("\\.json$", "");
      byType
          .computeIfAbsent(type, t -> new ArrayList<>())
          .add(p[3].equals("_cluster") ? object : p[3] + "/" + object);
    }
    d.heading("Resource List");
    if (byType.isEmpty()) {
      d.line("<none>");
    }
    byType.forEach(
        (type, objects) -> {
          d.line(type + ":");
          objects.forEach(o -> d.line("  - " + o));
        });
    d.end();
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
    List<Describe.Volume> volumes =
        client.resources(PodVolumeBackup.class).inNamespace(namespace).list().getItems().stream()
            .filter(p -> p.getSpec() != null && name.equals(p.getSpec().backupName))
            .filter(
                p ->
                    uid == null
                        || p.getSpec().backupUID == null
                        || uid.equals(p.getSpec().backupUID))
            .map(
                p -> {
                  PodVolumeStatus v = p.getStatus() == null ? new PodVolumeStatus() : p.getStatus();
                  return new Describe.Volume(p.getSpec().pod, p.getSpec().volume, v, v.snapshotID);
                })
            .toList();
    Describe.volumes(d, s.volumes, s.volumesCompleted, s.volumesFailed, volumes);
  }
}
