package dev.stele.operator.repository;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.k8s.api.AccessMode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.DeletionPolicy;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.Places;
import dev.stele.operator.store.Place;
import dev.stele.repo.RepositoryFormat;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What deleting a {@code BackupStorageLocationRepository} does to its repository. {@code Retain}
 * (the default): nothing. {@code Delete}: every blob whose retention has expired is deleted, the
 * format and key blobs last; blobs still retained stay and are reported in an Event with the time
 * their retention ends. The resource then goes away; the password Secret always stays.
 *
 * <p>While the location is Unavailable, deletion waits (the finalizer stays) rather than give up.
 */
final class RepositoryDeletion {
  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;

  RepositoryDeletion(KubernetesClient client, Settings settings, Events events) {
    this.client = client;
    this.settings = settings;
    this.events = events;
  }

  DeleteControl cleanup(BackupStorageLocationRepository bslr) {
    settings.repositories().close(bslr.getMetadata().getNamespace(), bslr.getMetadata().getName());
    BackupStorageLocationRepositorySpec spec = bslr.getSpec();
    if (spec == null || spec.deletion() != DeletionPolicy.DELETE) {
      return DeleteControl.defaultDelete();
    }
    BackupStorageLocation bsl = Repositories.location(client, bslr);
    if (bsl == null || bsl.getSpec().access() == AccessMode.READ_ONLY) {
      events.record(
          bslr,
          Events.WARNING,
          "RepositoryKept",
          "deletionPolicy Delete, but BackupStorageLocation "
              + spec.backupStorageLocation
              + (bsl == null ? " does not exist" : " is ReadOnly")
              + ": the repository stays in the bucket");
      return DeleteControl.defaultDelete();
    }
    if (bsl.getStatus() == null || bsl.getStatus().phase != LocationPhase.AVAILABLE) {
      events.record(
          bslr,
          Events.WARNING,
          "DeletionWaiting",
          "waiting for BackupStorageLocation " + spec.backupStorageLocation + " to be Available");
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(settings.recheck());
    }
    try {
      Place place = Places.resolve(client, bsl);
      String path = place.repositoryPath(bslr.getMetadata().getName());
      try (BlobStore store = settings.stores().open(place, path)) {
        report(bslr, place.url(path), deleteAll(store));
      }
      return DeleteControl.defaultDelete();
    } catch (InvalidResourceException | IOException | RuntimeException e) {
      events.record(bslr, Events.WARNING, "DeletionFailed", e.getMessage());
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(settings.recheck());
    }
  }

  /** How a deletion went. */
  record Outcome(int deleted, int retained, Instant retainedUntil) {}

  Outcome deleteAll(BlobStore store) throws IOException {
    Instant now = settings.clock().instant();
    List<BlobInfo> blobs = new ArrayList<>(store.list(""));
    // The format and keys go last: until then, what remains is still an openable repository.
    blobs.sort(Comparator.comparingInt(RepositoryDeletion::rank));
    int deleted = 0;
    int retained = 0;
    Instant until = null;
    for (BlobInfo blob : blobs) {
      Retention r = store.retention(blob.name());
      if (r.retainedAt(now)) {
        retained++;
        until = until == null || r.until().isAfter(until) ? r.until() : until;
        continue;
      }
      try {
        store.delete(blob.name());
        deleted++;
      } catch (BlobRetainedException e) {
        retained++;
      }
    }
    return new Outcome(deleted, retained, until);
  }

  private static int rank(BlobInfo b) {
    if (b.name().equals(RepositoryFormat.BLOB)) {
      return 2;
    }
    return b.name().startsWith("keys/") ? 1 : 0;
  }

  private void report(BackupStorageLocationRepository bslr, String url, Outcome o) {
    if (o.retained() == 0) {
      events.record(
          bslr,
          Events.NORMAL,
          "RepositoryDeleted",
          "deleted " + o.deleted() + " blobs: the repository at " + url + " is gone");
    } else {
      events.record(
          bslr,
          Events.WARNING,
          "RepositoryRetained",
          "deleted "
              + o.deleted()
              + " blobs of "
              + url
              + "; "
              + o.retained()
              + " are still retained"
              + (o.retainedUntil() == null ? "" : " until " + o.retainedUntil())
              + " and stay in the bucket (retention forbids deleting them earlier)");
    }
  }
}
