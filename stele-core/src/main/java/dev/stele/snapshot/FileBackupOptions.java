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
public record FileBackupOptions(
    String host,
    List<String> tags,
    List<String> excludes,
    SnapshotManifest parent,
    String parentId,
    Instant expires,
    Map<String, String> labels,
    int threads,
    int uploads) {

  public static FileBackupOptions defaults(String host) {
    int cores = Runtime.getRuntime().availableProcessors();
    return new FileBackupOptions(host, List.of(), List.of(), null, null, null, Map.of(), cores, 2);
  }

  public FileBackupOptions withParent(SnapshotManifest manifest, String id) {
    return new FileBackupOptions(
        host, tags, excludes, manifest, id, expires, labels, threads, uploads);
  }

  public FileBackupOptions withTags(List<String> newTags) {
    return new FileBackupOptions(
        host, newTags, excludes, parent, parentId, expires, labels, threads, uploads);
  }

  public FileBackupOptions withExcludes(List<String> globs) {
    return new FileBackupOptions(
        host, tags, globs, parent, parentId, expires, labels, threads, uploads);
  }

  public FileBackupOptions withExpiry(Instant instant) {
    return new FileBackupOptions(
        host, tags, excludes, parent, parentId, instant, labels, threads, uploads);
  }

  public FileBackupOptions withLabels(Map<String, String> newLabels) {
    return new FileBackupOptions(
        host, tags, excludes, parent, parentId, expires, newLabels, threads, uploads);
  }

  public FileBackupOptions withThreads(int n) {
    return new FileBackupOptions(
        host, tags, excludes, parent, parentId, expires, labels, n, uploads);
  }
}
