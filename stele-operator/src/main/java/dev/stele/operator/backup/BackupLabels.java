package dev.stele.operator.backup;

import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Times;
import dev.stele.repo.SnapshotManifest;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The labels of a backup's snapshots (docs/format.md §10.1), in one place for the writer and every
 * reader: a backup's manifest carries the Backup's name, namespace and uid and how it ended, so
 * that listing snapshots is enough to know every backup; its parts (the resources part, each pod
 * volume) carry the backup's uid as {@code part-of}.
 *
 * <p>Read leniently, as labels written by another Stele may be: a label that is missing or does not
 * parse is null.
 *
 * @param name the Backup's name
 * @param namespace the Backup's namespace
 * @param uid the Backup's uid, on its manifest
 * @param partOf the Backup's uid, on its parts
 * @param phase how the backup ended (Completed or PartiallyFailed), on its manifest
 * @param expiration when the backup may be forgotten, on its manifest
 * @param items objects backed up
 * @param warnings how many warnings the backup had
 * @param errors how many errors the backup had
 */
public record BackupLabels(
    String name,
    String namespace,
    String uid,
    String partOf,
    RunPhase phase,
    Instant expiration,
    Integer items,
    Integer warnings,
    Integer errors) {

  /** The labels of a backup's resources part. */
  static BackupLabels part(String name, String namespace, String uid) {
    return new BackupLabels(name, namespace, null, uid, null, null, null, null, null);
  }

  /** The labels of a backup's manifest. */
  static BackupLabels manifest(
      String name,
      String namespace,
      String uid,
      RunPhase phase,
      Instant expiration,
      int items,
      int warnings,
      int errors) {
    return new BackupLabels(name, namespace, uid, null, phase, expiration, items, warnings, errors);
  }

  /** The labels of {@code snapshot}; every field null if it is not a backup's. */
  public static BackupLabels of(SnapshotManifest snapshot) {
    Map<String, String> l = snapshot.labels();
    return new BackupLabels(
        l.get(SteleApi.BACKUP_NAME_LABEL),
        l.get(SteleApi.BACKUP_NAMESPACE_LABEL),
        l.get(SteleApi.BACKUP_UID_LABEL),
        l.get(SteleApi.PART_OF_LABEL),
        RunPhase.of(l.get(SteleApi.BACKUP_PHASE_LABEL)).orElse(null),
        Times.parse(l.get(SteleApi.BACKUP_EXPIRATION_LABEL)),
        integer(l.get(SteleApi.BACKUP_ITEMS_LABEL)),
        integer(l.get(SteleApi.BACKUP_WARNINGS_LABEL)),
        integer(l.get(SteleApi.BACKUP_ERRORS_LABEL)));
  }

  /** Whether {@code snapshot} is a backup's manifest (tagged {@value SteleApi#BACKUP_TAG}). */
  public static boolean isManifest(SnapshotManifest snapshot) {
    return snapshot.tags().contains(SteleApi.BACKUP_TAG);
  }

  /** The labels as a snapshot carries them; those that are null are left out. */
  Map<String, String> toMap() {
    Map<String, String> labels = new HashMap<>();
    put(labels, SteleApi.PART_OF_LABEL, partOf);
    put(labels, SteleApi.BACKUP_NAME_LABEL, name);
    put(labels, SteleApi.BACKUP_NAMESPACE_LABEL, namespace);
    put(labels, SteleApi.BACKUP_UID_LABEL, uid);
    put(labels, SteleApi.BACKUP_PHASE_LABEL, phase == null ? null : phase.value());
    put(labels, SteleApi.BACKUP_EXPIRATION_LABEL, expiration);
    put(labels, SteleApi.BACKUP_ITEMS_LABEL, items);
    put(labels, SteleApi.BACKUP_WARNINGS_LABEL, warnings);
    put(labels, SteleApi.BACKUP_ERRORS_LABEL, errors);
    return labels;
  }

  private static void put(Map<String, String> labels, String key, Object value) {
    if (value != null) {
      labels.put(key, value.toString());
    }
  }

  private static Integer integer(String s) {
    try {
      return s == null ? null : Integer.valueOf(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
