package dev.stele.operator.repository;

import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus.MaintenanceRun;
import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.MaintenanceKind;
import dev.stele.k8s.api.MaintenanceResult;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Settings;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * Runs a repository's maintenance when it is due and records it in the status. Quick: one
 * maintenance pass ({@link Maintenance}). Full: a pass, then {@link Verify} of the structure. The
 * schedule counts from the last run of each kind, or from when the repository became Ready.
 */
final class RepositoryMaintenance {
  static final Duration DEFAULT_FREQUENCY = Duration.ofHours(1);
  static final Duration DEFAULT_FULL_FREQUENCY = Duration.ofHours(24);
  static final int KEPT_RUNS = 5;

  private final Settings settings;
  private final Events events;
  private final OperatorMetrics metrics;

  RepositoryMaintenance(Settings settings, Events events, OperatorMetrics metrics) {
    this.settings = settings;
    this.events = events;
    this.metrics = metrics;
  }

  /** Runs what is due; returns how long until the next run is due. */
  Duration runIfDue(
      BackupStorageLocationRepository bslr,
      Repository repo,
      BackupStorageLocationRepositoryStatus status) {
    BackupStorageLocationRepositorySpec.Maintenance m = bslr.getSpec().maintenance;
    if (m != null && Boolean.TRUE.equals(m.paused)) {
      return settings.recheck();
    }
    Duration quick;
    Duration full;
    try {
      quick = Durations.parse(m == null ? null : m.frequency, DEFAULT_FREQUENCY);
      full = Durations.parse(m == null ? null : m.fullFrequency, DEFAULT_FULL_FREQUENCY);
    } catch (IllegalArgumentException e) {
      status.message = "spec.maintenance: " + e.getMessage();
      return settings.recheck();
    }
    Instant now = settings.clock().instant();
    Instant since = ReadyCondition.since(status);
    Instant anchor = since == null ? now : since;
    Instant lastQuick = parse(status.lastMaintenanceTime, anchor);
    Instant lastFull = parse(status.lastFullMaintenanceTime, anchor);
    if (!now.isBefore(lastFull.plus(full))) {
      run(bslr, repo, status, MaintenanceKind.FULL, now);
      status.lastFullMaintenanceTime = status.lastMaintenanceTime;
      lastQuick = lastFull = settings.clock().instant();
    } else if (!now.isBefore(lastQuick.plus(quick))) {
      run(bslr, repo, status, MaintenanceKind.QUICK, now);
      lastQuick = settings.clock().instant();
    }
    Instant after = settings.clock().instant();
    Instant next = lastQuick.plus(quick);
    if (lastFull.plus(full).isBefore(next)) {
      next = lastFull.plus(full);
    }
    Duration wait = Duration.between(after, next);
    return wait.compareTo(settings.recheck()) > 0
        ? settings.recheck()
        : wait.isNegative() ? Duration.ZERO : wait;
  }

  private void run(
      BackupStorageLocationRepository bslr,
      Repository repo,
      BackupStorageLocationRepositoryStatus status,
      MaintenanceKind kind,
      Instant start) {
    MaintenanceRun run = new MaintenanceRun();
    run.kind = kind;
    run.startTimestamp = start.toString();
    try {
      Maintenance.Result r = new Maintenance(repo).run(false);
      run.deleted = r.deleted();
      run.deferred = r.deferred();
      run.extended = r.extended();
      run.result = MaintenanceResult.SUCCEEDED;
      if (kind == MaintenanceKind.FULL) {
        Verify.Result v = new Verify(repo).run(false, VerifyListener.NONE);
        if (!v.ok()) {
          run.result = MaintenanceResult.FAILED;
          run.message =
              "verification found "
                  + v.problems().size()
                  + " problems, first: "
                  + v.problems().get(0);
        }
      }
    } catch (IOException | RuntimeException e) {
      run.result = MaintenanceResult.FAILED;
      run.message = e.getMessage();
    }
    run.completeTimestamp = settings.clock().instant().toString();
    status.lastMaintenanceTime = run.completeTimestamp;
    status.recentMaintenance.add(0, run);
    while (status.recentMaintenance.size() > KEPT_RUNS) {
      status.recentMaintenance.remove(status.recentMaintenance.size() - 1);
    }
    int deleted = run.deleted == null ? 0 : run.deleted;
    metrics.maintenance(bslr, kind, run.result, deleted);
    if (run.result == MaintenanceResult.FAILED) {
      events.record(
          bslr, Events.WARNING, "MaintenanceFailed", kind + " maintenance failed: " + run.message);
    } else {
      events.record(
          bslr,
          Events.NORMAL,
          "Maintained",
          kind
              + " maintenance: "
              + deleted
              + " deleted, "
              + run.deferred
              + " deferred by retention, "
              + run.extended
              + " retentions extended");
    }
  }

  private static Instant parse(String time, Instant fallback) {
    return time == null ? fallback : Instant.parse(time);
  }
}
