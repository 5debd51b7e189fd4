package dev.stele.operator.restore;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreProgress;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.operator.kube.Times;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * An {@link Outcome} as the Restore's status keeps it while the node agent fills volumes ({@code
 * status.progress}), so that whichever process ends the restore writes the same results.
 *
 * <p>A status is stored in etcd, whose objects are limited to about 1.5 MiB: the record keeps about
 * {@link #BUDGET} characters of JSON at most. Its warnings and errors come first, then the objects,
 * then the log; what does not fit is left out of the results, and their {@code note} says how much.
 * The counts in the status stay exact.
 */
final class ProgressRecord {
  static final int BUDGET = 512 * 1024;

  private ProgressRecord() {}

  /** The record of {@code outcome} for {@code status.progress}. */
  static RestoreProgress of(Outcome outcome) {
    RestoreProgress p = new RestoreProgress();
    p.backupSnapshotID = outcome.backupSnapshot;
    p.repository = outcome.repository;
    p.resultsExpiration = outcome.expires == null ? null : outcome.expires.toString();
    Budget budget = new Budget();
    p.warnings = budget.take(outcome.warnings, ProgressRecord::size);
    p.errors = budget.take(outcome.errors, ProgressRecord::size);
    p.objects =
        budget.take(outcome.objects, ProgressRecord::size).stream()
            .map(ProgressRecord::item)
            .toList();
    p.log = budget.take(outcome.log, ProgressRecord::size);
    p.volumeRequests = outcome.volumes.stream().map(ProgressRecord::request).toList();
    p.hookPods =
        outcome.hookPods.isEmpty()
            ? null
            : outcome.hookPods.stream().map(ProgressRecord::hookPod).toList();
    p.note =
        !budget.exceeded
            ? outcome.note
            : "the record kept in the Restore's status while its volumes were restored is limited"
                + " to "
                + BUDGET / 1024
                + " KiB: "
                + (outcome.objects.size() - p.objects.size())
                + " objects, "
                + (outcome.log.size() - p.log.size())
                + " log lines, "
                + (outcome.warnings.size() - p.warnings.size())
                + " warnings and "
                + (outcome.errors.size() - p.errors.size())
                + " errors are left out; the counts are exact";
    return p;
  }

  /**
   * The outcome of {@code restore}, waiting for {@code requests}: the one its status keeps, or,
   * when an operator that kept it in memory left the restore waiting, what can be known of it
   * ({@link Outcome#resumed}).
   */
  static Outcome resume(
      KubernetesClient client, Restore restore, List<PodVolumeRestore> requests, Clock clock) {
    if (restore.getStatus().progress != null) {
      return resume(restore, clock);
    }
    Backup backup =
        client
            .resources(Backup.class)
            .inNamespace(restore.getMetadata().getNamespace())
            .withName(restore.getSpec().backupName)
            .get();
    return Outcome.resumed(restore, requests, backup == null ? null : backup.getStatus(), clock);
  }

  /** The outcome {@code restore}'s status keeps (its {@code progress} is set). */
  static Outcome resume(Restore restore, Clock clock) {
    RestoreStatus status = restore.getStatus();
    RestoreProgress p = status.progress;
    Outcome outcome =
        new Outcome(
            restore.getSpec().backupName,
            p.backupSnapshotID,
            p.repository,
            Times.parse(p.resultsExpiration),
            status.startTimestamp,
            clock);
    outcome.restored = status.itemsRestored == null ? 0 : status.itemsRestored;
    outcome.skipped = status.itemsSkipped == null ? 0 : status.itemsSkipped;
    outcome.note = p.note;
    outcome.warnings.addAll(list(p.warnings, Function.identity()));
    outcome.errors.addAll(list(p.errors, Function.identity()));
    outcome.objects.addAll(list(p.objects, ProgressRecord::item));
    outcome.log.addAll(list(p.log, Function.identity()));
    outcome.volumes.addAll(list(p.volumeRequests, ProgressRecord::requested));
    outcome.hookPods.addAll(list(p.hookPods, ProgressRecord::hookPod));
    return outcome;
  }

  /** What is left of {@link #BUDGET}: once a list does not fit, nothing after it does. */
  private static final class Budget {
    int left = BUDGET;
    boolean exceeded;

    /** The longest prefix of {@code all} that fits. */
    <T> List<T> take(List<T> all, ToIntFunction<T> size) {
      List<T> kept = new ArrayList<>();
      for (T t : all) {
        int n = size.applyAsInt(t);
        if (exceeded || n > left) {
          exceeded = true;
          break;
        }
        left -= n;
        kept.add(t);
      }
      return kept;
    }
  }

  private static <T, R> List<R> list(List<T> kept, Function<T, R> convert) {
    return kept == null ? List.of() : kept.stream().map(convert).toList();
  }

  /** A string's share of the status's JSON: itself, its quotes and comma. */
  private static int size(String s) {
    return s.length() + 3;
  }

  /** An item's share of the status's JSON: its values, its keys and punctuation. */
  private static int size(RestoreDocument.Item i) {
    return 80
        + length(i.resource())
        + length(i.namespace())
        + length(i.name())
        + length(i.restoredAs())
        + length(i.result())
        + length(i.message());
  }

  private static int length(String s) {
    return s == null ? 0 : s.length();
  }

  private static RestoreProgress.Item item(RestoreDocument.Item i) {
    RestoreProgress.Item p = new RestoreProgress.Item();
    p.resource = i.resource();
    p.namespace = i.namespace();
    p.name = i.name();
    p.restoredAs = i.restoredAs();
    p.result = i.result();
    p.message = i.message();
    return p;
  }

  private static RestoreDocument.Item item(RestoreProgress.Item p) {
    return new RestoreDocument.Item(
        p.resource, p.namespace, p.name, p.restoredAs, p.result, p.message);
  }

  private static RestoreProgress.VolumeRequest request(Outcome.Requested r) {
    RestoreProgress.VolumeRequest p = new RestoreProgress.VolumeRequest();
    p.namespace = r.namespace();
    p.pod = r.pod();
    p.volume = r.volume();
    p.snapshotID = r.snapshotID();
    p.name = r.name();
    return p;
  }

  private static RestoreProgress.HookPod hookPod(Outcome.HookPod h) {
    RestoreProgress.HookPod p = new RestoreProgress.HookPod();
    p.namespace = h.namespace();
    p.pod = h.pod();
    p.backedUpIn = h.backedUpIn();
    p.started = h.started() ? Boolean.TRUE : null;
    return p;
  }

  private static Outcome.HookPod hookPod(RestoreProgress.HookPod p) {
    return new Outcome.HookPod(p.namespace, p.pod, p.backedUpIn, Boolean.TRUE.equals(p.started));
  }

  private static Outcome.Requested requested(RestoreProgress.VolumeRequest p) {
    return new Outcome.Requested(p.namespace, p.pod, p.volume, p.snapshotID, p.name);
  }
}
