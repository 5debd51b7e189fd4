package dev.stele.operator.backup;

import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.hook.HookReport;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A backup's snapshots in its repository (the layout is {@link BackupDocument}'s).
 *
 * <ul>
 *   <li>{@link #writeResources}: the resources part, written as soon as the API objects are
 *       collected, so that nothing the backup waits for is unreferenced in the meantime: {@code
 *       backup.json} with what the collection found (no phase: write-once.md rule 5), {@code
 *       backup.log}, {@code resources/}.
 *   <li>{@link #writeBackup}: the backup's manifest, written once when every volume has finished:
 *       the final {@code backup.json} and {@code backup.log}, the same {@code resources/} subtree
 *       and each completed volume's own subtree under {@code volumes/}. Its labels carry the final
 *       phase and counts, so listing snapshots is enough to know every backup.
 * </ul>
 *
 * Both are {@link SmallSnapshot}s: every blob either writes is created retained until the backup's
 * expiration, and blobs it reuses are extended to it before the manifest exists (write-once.md,
 * "Retention follows the data's need").
 */
final class BackupSnapshots {
  private final Repository repo;
  private final Clock clock;
  private final SnapshotCatalog catalog;
  private final SnapshotBrowser browser;

  BackupSnapshots(Repository repo, Clock clock) {
    this.repo = repo;
    this.clock = clock;
    this.catalog = new SnapshotCatalog(repo);
    this.browser = new SnapshotBrowser(repo);
  }

  /**
   * The resources part, written: what was collected, the pod volumes selected from the pods
   * collected (less those of pods whose pre hooks failed), what the pre hooks did, and every
   * warning and error of all three.
   */
  record Part(
      Id id,
      ResourceCollector.Result collected,
      List<VolumeSelection.PodVolume> volumes,
      PodHooks.Pre pre,
      List<String> warnings,
      List<String> errors) {}

  /**
   * Collects the resources {@code backup} selects, selects the volumes of its pods, runs the pods'
   * pre hooks ({@code preHooks}), and writes all three as the resources part.
   */
  Part writeResources(
      BackupRun backup,
      ResourceCollector collector,
      Function<List<GenericKubernetesResource>, PodHooks.Pre> preHooks)
      throws IOException {
    var spec = backup.spec();
    try (SmallSnapshot snapshot =
        SmallSnapshot.start(repo, 2, backup.started(), backup.expires())) {
      ResourceCollector.Result r = collector.collect(spec, snapshot.writer());
      List<String> warnings = new ArrayList<>(r.warnings());
      List<VolumeSelection.PodVolume> selected = VolumeSelection.select(r.pods(), spec, warnings);
      PodHooks.Pre pre = preHooks.apply(r.pods());
      List<VolumeSelection.PodVolume> volumes = pre.keep(selected);
      warnings.addAll(pre.report().warnings());
      List<String> errors = new ArrayList<>(r.errors());
      errors.addAll(pre.report().errors());
      for (VolumeSelection.PodVolume v : selected) {
        if (!volumes.contains(v)) {
          errors.add(
              "volume "
                  + v.namespace()
                  + "/"
                  + v.pod()
                  + "/"
                  + v.volume()
                  + " not backed up: the pod's pre hook failed");
        }
      }
      BackupDocument doc =
          new BackupDocument(
              BackupDocument.VERSION,
              backup.name(),
              backup.namespace(),
              backup.uid(),
              spec,
              null, // a part never says how the backup goes: that lives in the cluster
              backup.started().toString(),
              null,
              backup.expires().toString(),
              r.items(),
              warnings,
              errors,
              null,
              List.of());
      StringBuilder log = new StringBuilder();
      line(log, "backup " + backup.name() + " started at " + backup.started());
      line(log, "collected " + r.items() + " objects (" + r.itemsNew() + " changed or new)");
      line(
          log,
          r.clusterScoped()
              + " of them cluster-scoped, "
              + r.pulledIn().size()
              + " taken because collected objects need them");
      r.pulledIn().forEach(p -> line(log, "took " + p));
      pre.report().log().forEach(l -> line(log, l));
      line(log, volumes.size() + " pod volumes selected");
      warnings.forEach(w -> line(log, "warning: " + w));
      errors.forEach(e -> line(log, "error: " + e));
      TreeBuilder root = snapshot.root();
      root.file(BackupDocument.FILE, doc.encode(), snapshot.writer());
      root.file(
          BackupDocument.LOG, log.toString().getBytes(StandardCharsets.UTF_8), snapshot.writer());
      root.subtree(BackupDocument.RESOURCES, r.tree());
      var labels = BackupLabels.part(backup.name(), backup.namespace(), backup.uid()).toMap();
      var counts =
          new SmallSnapshot.Counts(r.items(), r.dirs(), r.bytes(), r.itemsNew(), errors.size());
      Id id = snapshot.write("/", List.of(SteleApi.RESOURCES_TAG), labels, counts, null).id();
      return new Part(id, r, volumes, pre, List.copyOf(warnings), List.copyOf(errors));
    }
  }

  /** The backup's manifest, written, and the document it holds. */
  record Written(SnapshotCatalog.Entry entry, BackupDocument document) {}

  /**
   * Writes the backup's manifest from its resources part, its volumes' requests (finished,
   * completed or failed) and what its post hooks did. The phase is Completed, or PartiallyFailed
   * when an object or a volume could not be backed up or a Fail hook failed.
   */
  Written writeBackup(
      BackupRun backup, Id resourcesPart, List<PodVolumeBackup> requests, HookReport post)
      throws IOException {
    Integer expected = backup.volumes();
    SnapshotManifest part = catalog.read(resourcesPart);
    Tree partRoot = browser.tree(browser.root(part));
    BackupDocument sofar = BackupDocument.decode(read(partRoot, BackupDocument.FILE));
    StringBuilder log =
        new StringBuilder(new String(read(partRoot, BackupDocument.LOG), StandardCharsets.UTF_8));
    List<String> errors = new ArrayList<>(sofar.errors());
    if (expected != null && requests.size() < expected) {
      String missing =
          (expected - requests.size())
              + " PodVolumeBackups were deleted before they finished; their volumes are not in"
              + " the backup";
      errors.add(missing);
      line(log, "error: " + missing);
    }
    List<BackupDocument.Volume> volumes = new ArrayList<>();
    Map<BackupDocument.Volume, Id> trees = new HashMap<>();
    long volumeBytes = 0;
    List<PodVolumeBackup> sorted = new ArrayList<>(requests);
    sorted.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    for (PodVolumeBackup pvb : sorted) {
      var spec = pvb.getSpec();
      PodVolumeStatus s = pvb.getStatus() == null ? new PodVolumeStatus() : pvb.getStatus();
      String what = "volume " + spec.pod.namespace + "/" + spec.pod.name + "/" + spec.volume;
      long bytes = s.bytesDone == null ? 0 : s.bytesDone;
      if (s.phase == PodVolumePhase.COMPLETED && s.snapshotID != null) {
        SnapshotManifest vm = catalog.read(Id.parse(s.snapshotID));
        Node dir = browser.find(vm, vm.paths().get(0));
        var v =
            new BackupDocument.Volume(
                spec.pod.namespace,
                spec.pod.name,
                spec.volume,
                PodVolumePhase.COMPLETED.value(),
                null,
                s.snapshotID,
                bytes);
        volumes.add(v);
        trees.put(v, dir.subtree());
        volumeBytes += bytes;
        line(log, what + ": " + bytes + " bytes in snapshot " + s.snapshotID);
      } else {
        String why = s.message == null ? "failed" : s.message;
        volumes.add(
            new BackupDocument.Volume(
                spec.pod.namespace,
                spec.pod.name,
                spec.volume,
                PodVolumePhase.FAILED.value(),
                why,
                null,
                0));
        errors.add(what + ": " + why);
        line(log, "error: " + what + ": " + why);
      }
    }
    post.log().forEach(l -> line(log, l));
    errors.addAll(post.errors());
    List<String> warnings = new ArrayList<>(sofar.warnings());
    warnings.addAll(post.warnings());
    RunPhase phase = errors.isEmpty() ? RunPhase.COMPLETED : RunPhase.PARTIALLY_FAILED;
    Instant now = clock.instant();
    line(log, "backup " + phase + " at " + now);
    BackupDocument doc =
        new BackupDocument(
            BackupDocument.VERSION,
            sofar.name(),
            sofar.namespace(),
            sofar.uid(),
            sofar.spec(),
            phase.value(),
            sofar.started(),
            now.toString(),
            sofar.expiration(),
            sofar.items(),
            warnings,
            errors,
            resourcesPart.hex(),
            volumes);
    try (SmallSnapshot snapshot =
        SmallSnapshot.start(repo, 1, backup.started(), backup.expires())) {
      TreeBuilder root = snapshot.root();
      root.file(BackupDocument.FILE, doc.encode(), snapshot.writer());
      root.file(
          BackupDocument.LOG, log.toString().getBytes(StandardCharsets.UTF_8), snapshot.writer());
      root.subtree(BackupDocument.RESOURCES, partRoot.find(BackupDocument.RESOURCES).subtree());
      for (var v : volumes) {
        if (trees.containsKey(v)) {
          root.dir(BackupDocument.VOLUMES)
              .dir(v.namespace())
              .dir(v.pod())
              .subtree(v.volume(), trees.get(v));
        }
      }
      var labels =
          BackupLabels.manifest(
                  backup.name(),
                  backup.namespace(),
                  backup.uid(),
                  phase,
                  backup.expires(),
                  sofar.items(),
                  warnings.size(),
                  errors.size())
              .toMap();
      var stats = part.stats();
      var counts =
          new SmallSnapshot.Counts(
              stats.files() + volumes.size(),
              stats.dirs() + root.directories(),
              stats.bytes() + volumeBytes,
              stats.filesNew(),
              errors.size());
      var written = snapshot.write("/", List.of(SteleApi.BACKUP_TAG), labels, counts, stats);
      return new Written(written, doc);
    }
  }

  /**
   * The manifest written for the backup with this uid, forgotten or not, or null (see {@link
   * SmallSnapshot#find}); parts are labelled differently and never match.
   */
  SnapshotCatalog.Entry manifestOf(String uid) throws IOException {
    return SmallSnapshot.find(repo, SteleApi.BACKUP_TAG, SteleApi.BACKUP_UID_LABEL, uid);
  }

  /** {@code backup.log} of a backup's snapshot. */
  String log(SnapshotManifest backup) throws IOException {
    return new String(
        read(browser.tree(browser.root(backup)), BackupDocument.LOG), StandardCharsets.UTF_8);
  }

  private byte[] read(Tree tree, String name) throws IOException {
    Node file = tree.find(name);
    if (file == null) {
      throw new IOException("the snapshot has no " + name);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    browser.cat(file, out);
    return out.toByteArray();
  }

  private void line(StringBuilder log, String text) {
    log.append(clock.instant()).append(' ').append(text).append('\n');
  }
}
