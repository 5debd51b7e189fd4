package dev.stele.operator.schedule;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.SchedulePhase;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Times;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Objects;

/**
 * Reconciles a {@link Schedule}: at every time its cron expression names (in UTC, by {@link
 * Settings#clock()}), creates a Backup {@code <schedule>-<yyyyMMddHHmmss>} from its template,
 * labelled {@code stele.dev/schedule-name}.
 *
 * <p>A run is due when the first time after the last one (or after the Schedule's creation) has
 * come. The Backup is named after the latest time that has come, so runs missed while the operator
 * was down give one Backup, not one per missed time (as Velero does), and a pass repeated for the
 * same time finds its Backup already there instead of making a second one.
 */
@ControllerConfiguration(name = "schedule")
public final class ScheduleReconciler
    extends PhasedReconciler<Schedule, ScheduleStatus, SchedulePhase> {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** A label value's limit, which the schedule's name becomes on each Backup. */
  private static final int MAX_NAME = 63;

  private final Settings settings;

  public ScheduleReconciler(KubernetesClient client, Settings settings) {
    super(client, new Events(client, settings.clock()), ScheduleStatus::new);
    this.settings = settings;
  }

  /**
   * FailedValidation while the name or the cron expression is wrong; otherwise Enabled, creating
   * the Backup that is due. Returns when the next one is, or null to wait for a change.
   */
  @Override
  protected Duration advance(Pass<Schedule, ScheduleStatus> pass, SchedulePhase phase) {
    Schedule schedule = pass.resource();
    ScheduleSpec spec = schedule.getSpec() == null ? new ScheduleSpec() : schedule.getSpec();
    ScheduleStatus status = pass.status();
    CronSchedule cron;
    try {
      if (schedule.getMetadata().getName().length() > MAX_NAME) {
        throw new IllegalArgumentException(
            "the name is longer than "
                + MAX_NAME
                + " characters, so it cannot label its Backups: choose a shorter one");
      }
      cron = CronSchedule.parse(spec.schedule);
    } catch (IllegalArgumentException e) {
      if (status.phase != SchedulePhase.FAILED_VALIDATION
          || !e.getMessage().equals(status.message)) {
        status.phase = SchedulePhase.FAILED_VALIDATION;
        status.message = e.getMessage();
        status.nextBackup = null;
        pass.write(Events.WARNING, SchedulePhase.FAILED_VALIDATION.value(), e.getMessage());
      }
      return null;
    }
    if (Boolean.TRUE.equals(spec.paused)) {
      if (status.nextBackup != null) {
        status.nextBackup = null;
        pass.write();
      }
      return null;
    }
    Instant now = settings.clock().instant();
    Instant due = cron.nextAfter(since(schedule));
    String before = statusLine(status);
    if (due != null && !due.isAfter(now)) {
      // The latest time that has come: one Backup however many times were missed.
      Instant slot = cron.latestAtOrBefore(now);
      String name = schedule.getMetadata().getName() + "-" + STAMP.format(slot);
      boolean created = create(schedule, spec.template, name);
      status.lastBackup = slot.toString();
      status.lastBackupName = name;
      due = cron.nextAfter(slot);
      if (created) {
        pass.event(Events.NORMAL, "BackupCreated", "created Backup " + name + " for " + slot);
      }
    }
    status.phase = SchedulePhase.ENABLED;
    status.message = null;
    status.nextBackup = due == null ? null : due.toString();
    if (!statusLine(status).equals(before)) {
      pass.write();
    }
    if (due == null) {
      return null;
    }
    Duration wait = Duration.between(now, due);
    return wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait;
  }

  /** The last run's time, or the Schedule's creation, or (neither known) now. */
  private Instant since(Schedule schedule) {
    ScheduleStatus status = schedule.getStatus();
    Instant last = Times.parse(status.lastBackup);
    if (last != null) {
      return last;
    }
    Instant created = Times.parse(schedule.getMetadata().getCreationTimestamp());
    return created == null ? settings.clock().instant() : created;
  }

  /** Creates the Backup; false if it exists already (this time's Backup was made before). */
  private boolean create(Schedule schedule, BackupSpec template, String name) {
    Backup backup = new Backup();
    backup.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(schedule.getMetadata().getNamespace())
            .withLabels(Map.of(SteleApi.SCHEDULE_NAME_LABEL, schedule.getMetadata().getName()))
            .build());
    backup.setSpec(template == null ? new BackupSpec() : template);
    try {
      client.resource(backup).create();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return false;
      }
      throw e;
    }
  }

  private static String statusLine(ScheduleStatus s) {
    return String.join(
        "|",
        Objects.toString(s.phase),
        Objects.toString(s.message),
        Objects.toString(s.lastBackup),
        Objects.toString(s.lastBackupName),
        Objects.toString(s.nextBackup));
  }
}
