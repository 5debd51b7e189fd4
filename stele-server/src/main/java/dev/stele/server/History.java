package dev.stele.server;

import dev.stele.snapshot.FileHistory;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.util.List;

/**
 * {@code GET /api/v1/history/{path}}: the versions of one path across the user's snapshots, one per
 * distinct content, newest first, each with the snapshots holding it (to download it from). A path
 * none of them holds is "no such path", as for a lookup in one snapshot.
 */
final class History {
  private History() {}

  /** One version as the API gives it: the entry as its newest snapshot has it. */
  record Version(ApiJson.Entry entry, List<String> snapshots) {}

  static List<Version> answer(
      SnapshotBrowser browser, List<SnapshotCatalog.Entry> readable, String path)
      throws Refusal, IOException {
    List<FileHistory.Version> versions;
    try {
      versions = FileHistory.of(browser, readable, path);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "path refused: " + e.getMessage());
    }
    if (versions.isEmpty()) {
      throw Refusal.notFound("path in the snapshot");
    }
    return versions.stream()
        .map(
            v ->
                new Version(
                    ApiJson.Entry.of(new SnapshotBrowser.Entry(v.path(), v.node()), false),
                    v.snapshots().stream().map(s -> s.id().hex()).toList()))
        .toList();
  }
}
