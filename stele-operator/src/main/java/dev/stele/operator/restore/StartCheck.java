package dev.stele.operator.restore;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.ExistingResourcePolicy;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.backup.Forgotten;
import dev.stele.operator.kube.Times;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;

/**
 * Whether a Restore can start: its spec is one the operator supports (selectors, resource
 * modifiers), its Backup is finished with a snapshot, the backup's repository is Ready, and no
 * tombstone there forgets the backup's manifest (the backup was deleted, maybe in another cluster,
 * before sync removed its Backup here). Exactly one of {@link #failure}, {@link #waitFor} or the
 * rest is set.
 *
 * @param failure why the restore can never run (it fails), or null
 * @param invalid whether {@code failure} is a refusal of the restore itself (FailedValidation)
 * @param waitFor what it waits for (a running backup, a repository not Ready), or null
 * @param backup the Backup's status
 * @param repository the backup's repository
 * @param snapshot the backup's snapshot
 * @param selection the spec's filters and mapping
 * @param modifiers the rules of the spec's resource modifier ConfigMap
 * @param update whether existing objects are replaced
 */
record StartCheck(
    String failure,
    boolean invalid,
    String waitFor,
    BackupStatus backup,
    BackupStorageLocationRepository repository,
    Id snapshot,
    Selection selection,
    ResourceModifiers modifiers,
    boolean update) {

  /** The outcome of a restore from the backup checked, named {@code backupName}, started now. */
  Outcome outcome(String backupName, Instant started, Clock clock) {
    return new Outcome(
        backupName,
        backup.snapshotID,
        backup.repository,
        Times.parse(backup.expiration),
        started.toString(),
        clock);
  }

  static StartCheck fail(String why) {
    return new StartCheck(why, false, null, null, null, null, null, null, false);
  }

  static StartCheck invalid(String why) {
    return new StartCheck(why, true, null, null, null, null, null, null, false);
  }

  static StartCheck waitFor(String what) {
    return new StartCheck(null, false, what, null, null, null, null, null, false);
  }

  static StartCheck of(KubernetesClient client, Repositories repositories, Restore restore) {
    RestoreSpec spec = restore.getSpec();
    String ns = restore.getMetadata().getNamespace();
    if (spec.backupName == null || spec.backupName.isBlank()) {
      return fail("spec.backupName is required");
    }
    Selection selection;
    ResourceModifiers modifiers;
    try {
      selection = new Selection(spec);
      modifiers = ResourceModifiers.load(client, ns, spec.resourceModifier);
    } catch (IllegalArgumentException e) {
      return fail(e.getMessage());
    }
    ExistingResourcePolicy policy =
        spec.existingResourcePolicy == null
            ? ExistingResourcePolicy.NONE
            : ExistingResourcePolicy.of(spec.existingResourcePolicy).orElse(null);
    if (policy == null) {
      return fail(
          "spec.existingResourcePolicy must be none or update, not " + spec.existingResourcePolicy);
    }
    String name = spec.backupName;
    Backup backup = client.resources(Backup.class).inNamespace(ns).withName(name).get();
    if (backup == null) {
      return fail("backup " + name + " does not exist in namespace " + ns);
    }
    BackupStatus bs = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (bs.phase == RunPhase.FAILED) {
      return fail("backup " + name + " failed: there is nothing to restore");
    }
    if (bs.phase != RunPhase.COMPLETED && bs.phase != RunPhase.PARTIALLY_FAILED) {
      return waitFor(
          "waiting for backup "
              + name
              + " to finish (phase "
              + (bs.phase == null ? "not started" : bs.phase)
              + ")");
    }
    if (bs.snapshotID == null || bs.repository == null) {
      return fail("backup " + name + " is " + bs.phase + " but names no snapshot and repository");
    }
    Id snapshot;
    BackupStorageLocationRepository repository;
    try {
      snapshot = Id.parse(bs.snapshotID);
      repository = repositories.named(ns, bs.repository);
    } catch (IllegalArgumentException | InvalidResourceException e) {
      return fail("backup " + name + ": " + e.getMessage());
    }
    String notReady = Repositories.notReady(repository);
    if (notReady != null) {
      return waitFor(notReady);
    }
    String deleted;
    try (Repository repo = repositories.open(repository)) {
      deleted = Forgotten.why(repo, repo.tombstones(), snapshot);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return waitFor("repository " + bs.repository + ": " + e.getMessage());
    }
    if (deleted != null) {
      return invalid(
          "backup "
              + name
              + " was deleted from repository "
              + bs.repository
              + ": "
              + deleted
              + "; it cannot be restored");
    }
    return new StartCheck(
        null,
        false,
        null,
        bs,
        repository,
        snapshot,
        selection,
        modifiers,
        policy == ExistingResourcePolicy.UPDATE);
  }
}
