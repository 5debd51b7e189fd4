package dev.stele.operator.nodeagent;

import static dev.stele.k8s.api.PodVolumePhase.AWAITING_APPROVAL;
import static dev.stele.k8s.api.PodVolumePhase.COMPLETED;
import static dev.stele.k8s.api.PodVolumePhase.FAILED;
import static dev.stele.k8s.api.PodVolumePhase.IN_PROGRESS;
import static dev.stele.k8s.api.PodVolumePhase.NEW;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the {@link PodVolumeRestore}s of the pods scheduled to this agent's node: once the pod has
 * a node ({@code spec.nodeName}) and the kubelet has created its volume's directory, restores the
 * volume snapshot's files into it with {@link FileRestore}, then writes the marker {@code
 * <volume>/.stele/<restore uid>} that lets the pod's {@code restore-wait} init container finish.
 *
 * <p>Until the pod exists and is scheduled, every agent may write what the request waits for into
 * its status (only when that changes; a conflicting write is dropped); from then on only the agent
 * of the pod's node touches it. Phases: New (waiting) → InProgress → Completed | Failed. A restore
 * that did not write every byte it planned fails, and leaves no marker. A request found InProgress
 * was left by an agent that stopped: if its marker exists it completes, otherwise it restores again
 * (restoring replaces files, so a second run is harmless).
 *
 * <p>A request a user made through the repository server ({@code spec.requestedBy}) restores only
 * its {@code spec.paths}, each to its own place in the pod's live volume, keeping files already
 * there unless {@code spec.overwrite}, and writes no marker. Nothing happens until an admin has set
 * the annotation {@link SteleApi#APPROVED_BY_ANNOTATION}: it waits in phase AwaitingApproval. An
 * annotation does not change {@code metadata.generation}, so this controller sees every change, not
 * only the spec's, to hear of the approval.
 */
@ControllerConfiguration(name = "podvolumerestore", generationAwareEventProcessing = false)
public final class PodVolumeRestoreReconciler extends RequestReconciler<PodVolumeRestore> {
  private static final Logger LOG = LoggerFactory.getLogger(PodVolumeRestoreReconciler.class);

  public PodVolumeRestoreReconciler(KubernetesClient client, Settings settings, NodeSettings node) {
    super(client, settings, node);
  }

  @Override
  protected Duration advance(Pass<PodVolumeRestore, PodVolumeStatus> pass, PodVolumePhase phase) {
    PodVolumeRestore pvr = pass.resource();
    PodVolumeRestoreSpec spec = pvr.getSpec();
    if (spec == null || spec.pod == null || blank(spec.pod.namespace) || blank(spec.pod.name)) {
      return waitFor(pass, "spec.pod needs a namespace and a name", FAILED);
    }
    if (spec.requestedBy != null && approver(pvr) == null) {
      // Heard of through the watch once annotated: no poll while an admin decides.
      waitFor(
          pass,
          "awaiting approval of "
              + spec.requestedBy
              + "'s request: an admin sets the annotation "
              + SteleApi.APPROVED_BY_ANNOTATION,
          AWAITING_APPROVAL);
      return null;
    }
    String podName = spec.pod.namespace + "/" + spec.pod.name;
    Pod pod = client.pods().inNamespace(spec.pod.namespace).withName(spec.pod.name).get();
    if (pod == null) {
      return waitFor(pass, "waiting for pod " + podName + " to be created", NEW);
    }
    String on = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (blank(on)) {
      return waitFor(pass, "waiting for pod " + podName + " to be scheduled to a node", NEW);
    }
    if (!node.node().equals(on)) {
      return null;
    }
    // This node's from here on.
    StatusWriter<PodVolumeRestore> status = new StatusWriter<>(pass);
    String invalid = invalid(spec);
    if (invalid != null) {
      return finish(status, FAILED, invalid);
    }
    String uid = pod.getMetadata().getUid();
    if (spec.pod.uid != null && !spec.pod.uid.equals(uid)) {
      return finish(
          status,
          FAILED,
          "pod " + podName + " was replaced: its uid is " + uid + ", not " + spec.pod.uid);
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.resolve(pvr.getMetadata().getNamespace(), spec.repository, null);
    } catch (InvalidResourceException e) {
      return finish(status, FAILED, e.getMessage());
    }
    String notReady = Repositories.notReady(bslr);
    if (notReady != null) {
      waitFor(pass, notReady, NEW);
      return settings.recheck();
    }
    Path dir;
    try {
      dir = volumes.directory(pod, spec.volume);
    } catch (PodVolumes.Unavailable e) {
      if (e.permanent) {
        return finish(status, FAILED, e.getMessage());
      }
      return waitFor(pass, "waiting: " + e.getMessage(), NEW);
    }
    if (spec.requestedBy == null && Files.exists(VolumeFiles.marker(dir, spec.restoreUID))) {
      status.write(s -> s.path = dir.toString());
      return finish(
          status,
          COMPLETED,
          "completed: its marker "
              + VolumeFiles.marker(dir, spec.restoreUID)
              + " was written before the agent restarted");
    }
    String repository = bslr.getMetadata().getName();
    try (Repository repo = repositories.open(bslr)) {
      SnapshotManifest snapshot;
      try {
        snapshot = new SnapshotCatalog(repo).read(Id.parse(spec.snapshotID));
      } catch (BlobNotFoundException e) {
        return finish(
            status,
            FAILED,
            "snapshot " + spec.snapshotID + " does not exist in repository " + repository);
      }
      return restore(status, repo, snapshot, dir);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("pod volume restore {} failed", pvr.getMetadata().getName(), e);
      return finish(status, FAILED, "repository " + repository + ": " + e.getMessage());
    }
  }

  @SuppressWarnings("try") // the ticker reports progress until closed
  private Duration restore(
      StatusWriter<PodVolumeRestore> status, Repository repo, SnapshotManifest snapshot, Path dir) {
    PodVolumeRestoreSpec spec = status.resource().getSpec();
    if (snapshot.paths().isEmpty()) {
      return finish(status, FAILED, "snapshot " + spec.snapshotID + " names no path");
    }
    String from = snapshot.paths().get(0);
    PodVolumeRestore started =
        status.write(
            s -> {
              s.phase = IN_PROGRESS;
              s.message = "restoring snapshot " + spec.snapshotID + " into " + dir;
              s.path = dir.toString();
              s.snapshotID = spec.snapshotID;
              s.startTimestamp = settings.clock().instant().toString();
              s.bytesTotal = snapshot.stats().bytes();
              s.bytesDone = 0L;
            });
    status.event(Events.NORMAL, IN_PROGRESS.value(), started.getStatus().message);
    AtomicLong planned = new AtomicLong();
    AtomicLong written = new AtomicLong();
    List<String> warnings = new ArrayList<>();
    FileRestoreListener listener =
        new FileRestoreListener() {
          @Override
          public void planned(long files, long bytes) {
            planned.addAndGet(bytes); // once per FileRestore: a request's paths add up
          }

          @Override
          public void bytesWritten(long bytes) {
            written.addAndGet(bytes);
          }

          @Override
          public void warning(String message) {
            synchronized (warnings) {
              warnings.add(message);
            }
          }
        };
    FileRestore.Result result;
    int threads = Runtime.getRuntime().availableProcessors();
    try (ProgressTicker ticker =
        new ProgressTicker(
            status.resource().getMetadata().getName(),
            node.progress(),
            written::get,
            d -> status.write(s -> s.bytesDone = d))) {
      result =
          spec.requestedBy == null
              ? new FileRestore(repo, threads, listener).run(snapshot, from, dir)
              : restorePaths(spec, repo, threads, listener, snapshot, from, dir);
    } catch (IOException | RuntimeException e) {
      LOG.warn("restoring into {} failed", dir, e);
      return finish(status, FAILED, "restoring into " + dir + ": " + e.getMessage());
    }
    status.write(
        s -> {
          s.bytesDone = written.get();
          s.bytesTotal = planned.get();
        });
    if (written.get() != planned.get()) {
      return finish(
          status,
          FAILED,
          written.get()
              + " of "
              + planned.get()
              + " bytes restored into "
              + dir
              + ": "
              + first(result.warnings()));
    }
    if (spec.requestedBy != null) {
      return finish(
          status,
          COMPLETED,
          String.join(", ", spec.paths)
              + " restored into "
              + dir
              + " for "
              + spec.requestedBy
              + ", approved by "
              + approver(status.resource())
              + ": "
              + result.files()
              + " files, "
              + result.bytes()
              + " bytes"
              + (result.kept() == 0 ? "" : "; " + result.kept() + " already there kept")
              + (result.warnings().isEmpty() ? "" : "; warnings: " + first(result.warnings())));
    }
    Path marker;
    try {
      marker = VolumeFiles.writeMarker(dir, spec.restoreUID, spec.snapshotID);
    } catch (IOException e) {
      return finish(status, FAILED, "writing the marker into " + dir + ": " + e.getMessage());
    }
    return finish(
        status,
        COMPLETED,
        result.files()
            + " files, "
            + result.bytes()
            + " bytes restored into "
            + dir
            + "; marker "
            + marker
            + (result.warnings().isEmpty() ? "" : "; warnings: " + first(result.warnings())));
  }

  /**
   * Restores each of the request's paths to its own place in {@code dir}, keeping what is there
   * unless it says overwrite; the results added up.
   */
  private static FileRestore.Result restorePaths(
      PodVolumeRestoreSpec spec,
      Repository repo,
      int threads,
      FileRestoreListener listener,
      SnapshotManifest snapshot,
      String from,
      Path dir)
      throws IOException {
    long files = 0;
    long directories = 0;
    long bytes = 0;
    long damaged = 0;
    long kept = 0;
    List<String> warnings = new ArrayList<>();
    for (String path : spec.paths) {
      FileRestore restore = new FileRestore(repo, threads, listener);
      if (!Boolean.TRUE.equals(spec.overwrite)) {
        restore.keepExisting();
      }
      FileRestore.Result r = restore.runAt(snapshot, from, path, dir);
      files += r.files();
      directories += r.directories();
      bytes += r.bytes();
      damaged += r.damaged();
      kept += r.kept();
      warnings.addAll(r.warnings());
    }
    return new FileRestore.Result(files, directories, bytes, List.copyOf(warnings), damaged, kept);
  }

  /** Who approved a user's request, or null while nobody has. */
  private static String approver(PodVolumeRestore pvr) {
    var annotations = pvr.getMetadata().getAnnotations();
    String by = annotations == null ? null : annotations.get(SteleApi.APPROVED_BY_ANNOTATION);
    return blank(by) ? null : by;
  }

  /**
   * Writes what the request waits for (or, with {@code phase} Failed, why it cannot go on), if that
   * changed, as any agent may while the pod has no node; a write that conflicts with another
   * agent's is dropped. Returns when to look again.
   */
  private Duration waitFor(
      Pass<PodVolumeRestore, PodVolumeStatus> pass, String message, PodVolumePhase phase) {
    PodVolumeStatus s = pass.status();
    boolean failed = phase == FAILED;
    if (!message.equals(s.message) || phase != s.phase) {
      s.phase = phase;
      s.message = message;
      if (failed) {
        s.completionTimestamp = settings.clock().instant().toString();
      }
      try {
        if (failed) {
          pass.write(Events.WARNING, FAILED.value(), message);
        } else {
          pass.write();
        }
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
        return node.poll();
      }
    }
    return failed ? null : node.poll();
  }

  private static String invalid(PodVolumeRestoreSpec spec) {
    if (blank(spec.volume)) {
      return "spec.volume is empty";
    }
    if (blank(spec.snapshotID)) {
      return "spec.snapshotID is empty";
    }
    if (spec.snapshotID.length() != 64 || !spec.snapshotID.matches("[0-9a-f]+")) {
      return "spec.snapshotID " + spec.snapshotID + " is not a snapshot id (64 hex digits)";
    }
    if (spec.requestedBy == null) {
      return blank(spec.restoreUID) ? "spec.restoreUID is empty" : null;
    }
    if (spec.paths == null || spec.paths.isEmpty()) {
      return "spec.paths is empty: a request by " + spec.requestedBy + " names what to restore";
    }
    for (String path : spec.paths) {
      if (!path.startsWith("/") || ("/" + path + "/").contains("/../")) {
        return "spec.paths: " + path + " is not an absolute path inside the volume";
      }
    }
    return null;
  }
}
