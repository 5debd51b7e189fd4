package dev.stele.operator.nodeagent;

import static dev.stele.k8s.api.PodVolumePhase.COMPLETED;
import static dev.stele.k8s.api.PodVolumePhase.FAILED;
import static dev.stele.k8s.api.PodVolumePhase.IN_PROGRESS;
import static dev.stele.k8s.api.PodVolumePhase.NEW;

import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the {@link PodVolumeBackup}s of this agent's node ({@code spec.node}; others are left to
 * their own node's agent): finds the pod's volume under the kubelet's pod directory and takes a
 * snapshot of it with {@link FileBackup}, tagged {@code pod-volume}, labelled with the backup's uid
 * ({@code part-of}), name, the pod and the volume, expiring with the backup. The Backup reconciler
 * collects these snapshots into the backup's manifest.
 *
 * <p>Phases: New (or none) → InProgress → Completed | Failed. A pass that starts a backup ends it,
 * so a request found InProgress was left by an agent that stopped; like every pass, it first looks
 * for a snapshot carrying the request's labels and completes from it, and only otherwise backs the
 * volume up again: one request never gets two snapshots. A repository that is not Ready yet is
 * waited for (message, recheck every {@link Settings#recheck()}), since it is usually on its way
 * back (its location's validation failed once); everything else that is wrong fails the request
 * with one line.
 */
@ControllerConfiguration(name = "podvolumebackup")
public final class PodVolumeBackupReconciler extends RequestReconciler<PodVolumeBackup> {
  private static final Logger LOG = LoggerFactory.getLogger(PodVolumeBackupReconciler.class);

  public PodVolumeBackupReconciler(KubernetesClient client, Settings settings, NodeSettings node) {
    super(client, settings, node);
  }

  /** This node's requests only. */
  @Override
  protected boolean serves(PodVolumeBackup pvb) {
    return pvb.getSpec() != null && node.node().equals(pvb.getSpec().node);
  }

  @Override
  protected Duration advance(Pass<PodVolumeBackup, PodVolumeStatus> pass, PodVolumePhase phase) {
    PodVolumeBackup pvb = pass.resource();
    StatusWriter<PodVolumeBackup> status = new StatusWriter<>(pass);
    PodVolumeBackupSpec spec = pvb.getSpec();
    String invalid = invalid(spec);
    if (invalid != null) {
      return finish(status, FAILED, invalid);
    }
    Instant expires;
    try {
      expires = spec.expiration == null ? null : Instant.parse(spec.expiration);
    } catch (DateTimeParseException e) {
      return finish(status, FAILED, "spec.expiration is not a time: " + spec.expiration);
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.resolve(pvb.getMetadata().getNamespace(), spec.repository, null);
    } catch (InvalidResourceException e) {
      return finish(status, FAILED, e.getMessage());
    }
    String notReady = Repositories.notReady(bslr);
    if (notReady != null) {
      PodVolumeStatus s = status.resource().getStatus();
      if (!notReady.equals(s.message)) {
        status.write(
            x -> {
              x.phase = x.phase == null ? NEW : x.phase;
              x.message = notReady;
            });
      }
      return settings.recheck();
    }
    String repository = bslr.getMetadata().getName();
    try (Repository repo = repositories.open(bslr)) {
      List<SnapshotCatalog.Entry> snapshots = new SnapshotCatalog(repo).list();
      SnapshotCatalog.Entry existing =
          snapshots.stream()
              .filter(e -> VolumeSnapshotLabels.isFor(e.manifest(), spec))
              .findFirst()
              .orElse(null);
      if (existing != null) {
        return completeFrom(status, existing);
      }
      Path dir;
      try {
        dir = volumes.directory(pod(spec), spec.volume);
      } catch (PodVolumes.Unavailable e) {
        return finish(status, FAILED, e.getMessage());
      }
      return backUp(status, repo, snapshots, dir, expires);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("pod volume backup {} failed", pvb.getMetadata().getName(), e);
      return finish(status, FAILED, "repository " + repository + ": " + e.getMessage());
    }
  }

  /** The pod of the request, checked to be the one named (uid) and to run on this node. */
  private Pod pod(PodVolumeBackupSpec spec) throws PodVolumes.Unavailable {
    String name = spec.pod.namespace + "/" + spec.pod.name;
    Pod pod = client.pods().inNamespace(spec.pod.namespace).withName(spec.pod.name).get();
    if (pod == null) {
      throw new PodVolumes.Unavailable("pod " + name + " does not exist", true);
    }
    String uid = pod.getMetadata().getUid();
    if (spec.pod.uid != null && !spec.pod.uid.equals(uid)) {
      throw new PodVolumes.Unavailable(
          "pod " + name + " was replaced: its uid is " + uid + ", not " + spec.pod.uid, true);
    }
    String on = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (!node.node().equals(on)) {
      throw new PodVolumes.Unavailable(
          "pod " + name + " runs on node " + on + ", not on " + node.node() + " (spec.node)", true);
    }
    return pod;
  }

  @SuppressWarnings("try") // the ticker reports progress until closed
  private Duration backUp(
      StatusWriter<PodVolumeBackup> status,
      Repository repo,
      List<SnapshotCatalog.Entry> snapshots,
      Path dir,
      Instant expires)
      throws IOException {
    PodVolumeBackupSpec spec = status.resource().getSpec();
    String host = spec.pod.namespace + "/" + spec.pod.name;
    List<String> paths = FileBackup.sourcePaths(List.of(dir));
    long total = VolumeFiles.size(dir);
    PodVolumeBackup started =
        status.write(
            s -> {
              s.phase = IN_PROGRESS;
              s.message = "backing up " + dir + " on node " + node.node();
              s.path = dir.toString();
              s.startTimestamp = settings.clock().instant().toString();
              s.bytesTotal = total;
              s.bytesDone = 0L;
            });
    status.event(Events.NORMAL, IN_PROGRESS.value(), started.getStatus().message);
    FileBackupOptions options =
        FileBackupOptions.defaults(host)
            .withTags(List.of(SteleApi.POD_VOLUME_TAG))
            .withLabels(VolumeSnapshotLabels.of(spec))
            .withExpiry(expires)
            .withExcludes(List.of(VolumeFiles.markerGlob(dir)));
    // The newest snapshot of this same directory (the pod has not been replaced) is the parent:
    // its unchanged files are not read again.
    for (SnapshotCatalog.Entry e : snapshots) {
      if (e.manifest().host().equals(host) && e.manifest().paths().equals(paths)) {
        options = options.withParent(e.manifest(), e.id().hex());
      }
    }
    AtomicLong done = new AtomicLong();
    FileBackupListener listener =
        new FileBackupListener() {
          @Override
          public void bytesRead(long bytes) {
            done.addAndGet(bytes);
          }

          @Override
          public void fileDone(Path path, long bytes, boolean reused) {
            if (reused) {
              done.addAndGet(bytes);
            }
          }
        };
    FileBackup.Result result;
    try (ProgressTicker ticker =
        new ProgressTicker(
            status.resource().getMetadata().getName(),
            node.progress(),
            done::get,
            d -> status.write(s -> s.bytesDone = d))) {
      result = new FileBackup(repo, options, listener).run(List.of(dir));
    } catch (IOException | RuntimeException e) {
      LOG.warn("backing up {} failed", dir, e);
      return finish(status, FAILED, "backing up " + dir + ": " + e.getMessage());
    }
    SnapshotManifest.Stats stats = result.manifest().stats();
    String message =
        stats.files()
            + " files, "
            + stats.bytes()
            + " bytes ("
            + stats.bytesNew()
            + " new) from "
            + dir
            + (result.warnings().isEmpty()
                ? ""
                : "; " + result.warnings().size() + " skipped: " + first(result.warnings()));
    status.write(
        s -> {
          s.snapshotID = result.id().hex();
          s.bytesDone = stats.bytes();
          s.bytesTotal = stats.bytes();
        });
    return finish(status, COMPLETED, message);
  }

  private Duration completeFrom(StatusWriter<PodVolumeBackup> status, SnapshotCatalog.Entry e) {
    SnapshotManifest m = e.manifest();
    status.write(
        s -> {
          s.snapshotID = e.id().hex();
          s.path = m.paths().isEmpty() ? s.path : m.paths().get(0);
          s.bytesDone = m.stats().bytes();
          s.bytesTotal = m.stats().bytes();
          s.startTimestamp = s.startTimestamp == null ? m.time().toString() : s.startTimestamp;
        });
    return finish(
        status,
        COMPLETED,
        "completed from snapshot "
            + e.id().shortHex()
            + ", written for this request before the agent restarted");
  }

  private static String invalid(PodVolumeBackupSpec spec) {
    if (spec.pod == null || blank(spec.pod.namespace) || blank(spec.pod.name)) {
      return "spec.pod needs a namespace and a name";
    }
    if (blank(spec.volume)) {
      return "spec.volume is empty";
    }
    if (blank(spec.backupUID)) {
      return "spec.backupUID is empty";
    }
    return null;
  }
}
