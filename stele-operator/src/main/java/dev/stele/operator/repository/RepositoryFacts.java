package dev.stele.operator.repository;

import dev.stele.blob.BlobInfo;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.operator.location.Lock;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Pack;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a repository's status says about the repository itself: its format (id, lock, creation
 * parameters), its counts and sizes, and which asked-for creation parameters it cannot take.
 */
final class RepositoryFacts {
  private static final Logger LOG = LoggerFactory.getLogger(RepositoryFacts.class);

  private RepositoryFacts() {}

  /** Copies the format's facts into {@code status}. */
  static void format(RepositoryFormat f, String url, BackupStorageLocationRepositoryStatus status) {
    status.repositoryID = f.id();
    status.url = url;
    status.lock = new Lock(f.retentionMode(), f.minimumRetention()).toString();
    status.compressionLevel = f.compressionLevel();
    status.packSizeMiB = f.packSize() >> 20;
  }

  /**
   * Counts and sizes from listings (no snapshot is read): snapshots, forgotten ones, packs and
   * their bytes. A failure leaves the last counts; it is not a reason to be NotReady.
   */
  static void count(Repository repo, BackupStorageLocationRepositoryStatus status) {
    try {
      Set<String> forgotten = repo.tombstoned();
      int live = 0;
      int gone = 0;
      for (Id id : repo.list(BlobKind.SNAPSHOT)) {
        if (forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
          gone++;
        } else {
          live++;
        }
      }
      List<BlobInfo> packs = repo.store().list(Pack.PREFIX);
      status.snapshots = live;
      status.forgottenSnapshots = gone;
      status.packs = packs.size();
      status.packBytes = packs.stream().mapToLong(BlobInfo::size).sum();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not count {}: {}", status.url, e.getMessage());
    }
  }

  /** Why creation-time parameters in {@code spec} cannot apply to {@code f}; null if they agree. */
  static String refusedChanges(BackupStorageLocationRepositorySpec spec, RepositoryFormat f) {
    StringBuilder b = new StringBuilder();
    if (spec.compressionLevel != null && spec.compressionLevel != f.compressionLevel()) {
      b.append("compressionLevel ")
          .append(spec.compressionLevel)
          .append(" (the repository was created with ")
          .append(f.compressionLevel())
          .append(")");
    }
    if (spec.packSizeMiB != null && spec.packSizeMiB != f.packSize() >> 20) {
      b.append(b.length() > 0 ? ", " : "")
          .append("packSizeMiB ")
          .append(spec.packSizeMiB)
          .append(" (the repository was created with ")
          .append(f.packSize() >> 20)
          .append(")");
    }
    return b.length() == 0
        ? null
        : "refused: "
            + b
            + " — these are fixed when a repository is created; the repository keeps its own";
  }
}
