package dev.stele.operator.deletion;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Times;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Expires Backups: once a finished Backup's {@code status.expiration} has passed, creates the
 * DeleteBackupRequest {@code <backup>-expired} for it (as Velero's garbage collection does), which
 * tombstones its snapshots and removes it. Until then it looks again at the expiration. Its own
 * controller on Backups, beside the one that runs them; it sees status changes (a Backup turning
 * Completed), not only spec changes.
 */
@ControllerConfiguration(name = "backup-expiry", generationAwareEventProcessing = false)
public final class BackupExpiryReconciler implements Reconciler<Backup> {
  /** The suffix of the request's name. */
  public static final String SUFFIX = "-expired";

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;

  public BackupExpiryReconciler(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
  }

  @Override
  public UpdateControl<Backup> reconcile(Backup backup, Context<Backup> context) {
    Duration again = reconcile(backup);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Backup>noUpdate().rescheduleAfter(again);
  }

  /**
   * One pass; returns when to look again, or null when there is nothing to wait for (the Backup is
   * not finished, has no expiration, or its request exists).
   */
  public @Nullable Duration reconcile(Backup backup) {
    BackupStatus status = backup.getStatus();
    if (status == null
        || backup.getMetadata().getDeletionTimestamp() != null
        || status.phase == null
        || !status.phase.isFinal()) {
      return null;
    }
    Instant expiration = Times.parse(status.expiration);
    if (expiration == null) {
      return null;
    }
    Duration left = Duration.between(settings.clock().instant(), expiration);
    if (!left.isNegative() && !left.isZero()) {
      return left;
    }
    String name = backup.getMetadata().getName() + SUFFIX;
    var request = new DeleteBackupRequest();
    request.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(backup.getMetadata().getNamespace())
            .build());
    var spec = new DeleteBackupRequestSpec();
    spec.backupName = backup.getMetadata().getName();
    request.setSpec(spec);
    try {
      client.resource(request).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return null;
      }
      throw e;
    }
    events.record(
        backup,
        Events.NORMAL,
        "Expired",
        "expired at " + expiration + ": DeleteBackupRequest " + name + " created");
    return null;
  }
}
