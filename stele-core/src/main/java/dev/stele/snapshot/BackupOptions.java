package dev.stele.snapshot;

import dev.stele.repo.SnapshotManifest;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How to take a snapshot.
 *
 * @param host recorded host name
 * @param tags labels for the snapshot
 * @param excludes glob patterns; one without {@code /} matches a file name anywhere, one with
 *     {@code /} matches the absolute path, both as {@code ls} shows them ({@link Excludes})
 * @param parent the snapshot whose unchanged files are reused without reading, or null
 * @param parentId the parent's id (hex), recorded in the new manifest, or null
 * @param expires when the snapshot may be forgotten, or null
 * @param labels extra data for the manifest
 * @param threads worker threads for reading and sealing (each)
 * @param uploads packs uploaded at once
 */
public record BackupOptions(
    String host,
    List<String> tags,
    List<String> excludes,
    SnapshotManifest parent,
    String parentId,
    Instant expires,
    Map<String, String> labels,
    int threads,
    int uploads) {

  public static BackupOptions defaults(String host) {
    int cores = Runtime.getRuntime().availableProcessors();
    return new BackupOptions(host, List.of(), List.of(), null, null, null, Map.of(), cores, 2);
  }

  public BackupOptions withParent(SnapshotManifest manifest, String id) {
    return new BackupOptions(host, tags, excludes, manifest, id, expires, labels, threads, uploads);
  }

  public BackupOptions withTags(List<String> newTags) {
    return new BackupOptions(
        host, newTags, excludes, parent, parentId, expires, labels, threads, uploads);
  }

  public BackupOptions withExcludes(List<String> globs) {
    return new BackupOptions(
        host, tags, globs, parent, parentId, expires, labels, threads, uploads);
  }

  public BackupOptions withExpiry(Instant instant) {
    return new BackupOptions(
        host, tags, excludes, parent, parentId, instant, labels, threads, uploads);
  }

  public BackupOptions withLabels(Map<String, String> newLabels) {
    return new BackupOptions(
        host, tags, excludes, parent, parentId, expires, newLabels, threads, uploads);
  }

  public BackupOptions withThreads(int n) {
    return new BackupOptions(host, tags, excludes, parent, parentId, expires, labels, n, uploads);
  }
}
