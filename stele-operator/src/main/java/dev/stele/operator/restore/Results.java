package dev.stele.operator.restore;

import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.SmallSnapshot;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A restore's results in the repository: one snapshot tagged {@value SteleApi#RESTORE_TAG},
 * labelled with the Restore's name, uid and final phase, whose tree holds {@code restore.json} and
 * {@code restore.log}. Written once: every write is preceded by a search for one carrying the
 * restore's uid.
 */
final class Results {
  private Results() {}

  /** The results of the restore with this uid, forgotten or not, or null. */
  static SnapshotCatalog.Entry find(Repository repo, String uid) throws IOException {
    return SmallSnapshot.find(repo, SteleApi.RESTORE_TAG, SteleApi.RESTORE_UID_LABEL, uid);
  }

  /**
   * The id of the restore's results: those found with its uid (a pass before a restart wrote them),
   * or else {@code document} and the outcome's log, written now.
   */
  static Id writeOnce(Repository repo, Restore restore, RestoreDocument document, Outcome outcome)
      throws IOException {
    SnapshotCatalog.Entry found = find(repo, restore.getMetadata().getUid());
    return found != null
        ? found.id()
        : write(repo, restore, document, outcome.log, outcome.expires);
  }

  /** Writes the results; {@code expires} is the backup's expiry (results go with their backup). */
  static Id write(
      Repository repo, Restore restore, RestoreDocument document, List<String> log, Instant expires)
      throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(RestoreDocument.FILE, document.encode());
    files.put(
        RestoreDocument.LOG, (String.join("\n", log) + "\n").getBytes(StandardCharsets.UTF_8));
    var meta = restore.getMetadata();
    return SmallSnapshot.write(
        repo,
        files,
        "/restores/" + meta.getNamespace() + "/" + meta.getName(),
        List.of(SteleApi.RESTORE_TAG),
        Map.of(
            SteleApi.RESTORE_NAME_LABEL, meta.getName(),
            SteleApi.RESTORE_UID_LABEL, meta.getUid(),
            SteleApi.BACKUP_PHASE_LABEL, document.phase()),
        expires);
  }

  /** The {@code restore.json} of a results snapshot. */
  static RestoreDocument read(Repository repo, SnapshotManifest results) throws IOException {
    return RestoreDocument.decode(SmallSnapshot.read(repo, results, RestoreDocument.FILE));
  }
}
