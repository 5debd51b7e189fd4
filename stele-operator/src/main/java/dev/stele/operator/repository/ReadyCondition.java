package dev.stele.operator.repository;

import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.location.LocationReconciler;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;

/**
 * A repository's {@code Ready} condition: set from its phase on every pass, and read back for when
 * the repository first became Ready, from which maintenance counts until it has run.
 */
final class ReadyCondition {
  private ReadyCondition() {}

  static void set(
      BackupStorageLocationRepository bslr,
      BackupStorageLocationRepositoryStatus status,
      Instant now) {
    boolean ready = status.phase == RepositoryPhase.READY;
    Conditions.set(
        status.conditions,
        "Ready",
        ready,
        ready ? "RepositoryOpened" : "NotReady",
        status.message,
        LocationReconciler.generation(bslr),
        now);
  }

  /** When the repository first became Ready, by the Ready condition; null if it never did. */
  static Instant since(BackupStorageLocationRepositoryStatus status) {
    for (Condition c : status.conditions) {
      if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
        return Instant.parse(c.getLastTransitionTime());
      }
    }
    return null;
  }
}
