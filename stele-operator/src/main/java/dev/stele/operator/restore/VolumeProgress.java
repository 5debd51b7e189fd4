package dev.stele.operator.restore;

import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a restore's pod volumes stand, read from its PodVolumeRestores. A request that was deleted
 * before it ended never will: it counts as failed, by name when this process created it, else by
 * the difference between the number the Restore's status expects and the number listed.
 *
 * @param expected volumes the restore asked for
 * @param completed requests Completed
 * @param failed requests Failed or gone
 * @param volumes every request, with its last phase and message, for {@code restore.json}
 */
record VolumeProgress(
    int expected, int completed, int failed, List<RestoreDocument.Volume> volumes) {
  static final String DELETED = "the PodVolumeRestore was deleted before it ended";

  boolean done() {
    return completed + failed >= expected;
  }

  /** The status message while the restore waits. */
  String message() {
    return waiting(expected, completed, failed);
  }

  /** The status message of a restore waiting for volumes. */
  static String waiting(int expected, int completed, int failed) {
    return "waiting for the node agent to fill "
        + (expected - completed - failed)
        + " of "
        + expected
        + " pod volumes";
  }

  static VolumeProgress of(
      List<PodVolumeRestore> requests, List<Outcome.Requested> asked, Integer expected) {
    List<RestoreDocument.Volume> volumes = new ArrayList<>();
    int completed = 0;
    int failed = 0;
    for (PodVolumeRestore pvr : requests) {
      PodVolumeStatus s = pvr.getStatus() == null ? new PodVolumeStatus() : pvr.getStatus();
      if (s.phase == PodVolumePhase.COMPLETED) {
        completed++;
      } else if (s.phase == PodVolumePhase.FAILED) {
        failed++;
      }
      var spec = pvr.getSpec();
      volumes.add(
          new RestoreDocument.Volume(
              spec.pod.namespace,
              spec.pod.name,
              spec.volume,
              spec.snapshotID,
              pvr.getMetadata().getName(),
              s.phase == null ? null : s.phase.value(),
              s.message));
    }
    Set<String> listed =
        requests.stream().map(r -> r.getMetadata().getName()).collect(Collectors.toSet());
    int deleted = 0;
    for (Outcome.Requested r : asked) {
      if (!listed.contains(r.name())) {
        deleted++;
        volumes.add(
            new RestoreDocument.Volume(
                r.namespace(),
                r.pod(),
                r.volume(),
                r.snapshotID(),
                r.name(),
                PodVolumePhase.FAILED.value(),
                DELETED));
      }
    }
    int total = expected == null ? requests.size() + deleted : expected;
    failed += deleted + Math.max(0, total - requests.size() - deleted);
    return new VolumeProgress(total, completed, failed, volumes);
  }
}
