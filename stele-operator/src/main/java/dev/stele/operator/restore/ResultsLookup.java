package dev.stele.operator.restore;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;

/**
 * The search for a Restore's results in its Backup's repository, for a Restore a stopped operator
 * left InProgress: they exist if that operator wrote them before it could say so.
 *
 * @param found the results snapshot, or null (none, or no repository to look in)
 * @param document its {@code restore.json}, or null
 * @param repository the repository searched, or null
 * @param error why the repository could not be searched (yet), or null
 */
record ResultsLookup(
    SnapshotCatalog.Entry found, RestoreDocument document, String repository, String error) {

  static ResultsLookup of(KubernetesClient client, Repositories repositories, Restore restore) {
    String ns = restore.getMetadata().getNamespace();
    Backup backup =
        client.resources(Backup.class).inNamespace(ns).withName(restore.getSpec().backupName).get();
    if (backup == null || backup.getStatus() == null || backup.getStatus().repository == null) {
      return new ResultsLookup(null, null, null, null);
    }
    String repository = backup.getStatus().repository;
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.named(ns, repository);
    } catch (InvalidResourceException e) {
      // No repository, so no results in it.
      return new ResultsLookup(null, null, repository, null);
    }
    try (Repository repo = repositories.open(bslr)) {
      SnapshotCatalog.Entry found = Results.find(repo, restore.getMetadata().getUid());
      RestoreDocument document = found == null ? null : Results.read(repo, found.manifest());
      return new ResultsLookup(found, document, repository, null);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return new ResultsLookup(null, null, repository, e.getMessage());
    }
  }

  /** Puts what the results found say into {@code status}; returns their phase. */
  RunPhase countInto(RestoreStatus status) {
    status.resultsSnapshotID = found.id().hex();
    status.itemsRestored = document.itemsRestored();
    status.itemsSkipped = document.itemsSkipped();
    status.warnings = document.warnings().size();
    status.errors = document.errors().size();
    return RunPhase.of(document.phase()).orElse(RunPhase.COMPLETED);
  }
}
