package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.snapshot.SnapshotCatalog;
import java.util.List;

/**
 * How a finished backup's result enters its status: from the manifest just written, or from one a
 * pass before a restart wrote (its labels say how the backup ended).
 */
final class BackupResult {
  private BackupResult() {}

  /** Fills {@code status} from the manifest written; returns the final phase and message. */
  static Ending of(BackupStatus status, BackupSnapshots.Written written) {
    BackupDocument doc = written.document();
    status.snapshotID = written.entry().id().hex();
    status.manifest = written.entry().name();
    status.items = doc.items();
    status.warnings =
        Math.max(doc.warnings().size(), status.warnings == null ? 0 : status.warnings);
    status.errors = doc.errors().size();
    status.chunksNew = written.entry().manifest().stats().chunksNew();
    String message =
        doc.items()
            + " items"
            + (doc.volumes().isEmpty() ? "" : ", " + doc.volumes().size() + " pod volumes")
            + (doc.errors().isEmpty() ? "" : "; errors: " + String.join("; ", first(doc.errors())))
            + (doc.warnings().isEmpty()
                ? ""
                : "; warnings: " + String.join("; ", first(doc.warnings())));
    return new Ending(RunPhase.of(doc.phase()).orElseThrow(), message);
  }

  /** Fills {@code status} from a manifest found in the repository, written before a restart. */
  static Ending found(BackupStatus status, SnapshotCatalog.Entry found) {
    BackupLabels labels = BackupLabels.of(found.manifest());
    status.snapshotID = found.id().hex();
    status.manifest = found.name();
    status.items = labels.items();
    status.warnings = labels.warnings();
    status.errors = labels.errors();
    return new Ending(
        labels.phase() == null ? RunPhase.COMPLETED : labels.phase(),
        "completed from its manifest after the operator restarted (" + found.name() + ")");
  }

  /** The phase a backup ends in, and the message saying so. */
  record Ending(RunPhase phase, String message) {}

  private static List<String> first(List<String> all) {
    return all.size() <= 5 ? all : all.subList(0, 5);
  }
}
