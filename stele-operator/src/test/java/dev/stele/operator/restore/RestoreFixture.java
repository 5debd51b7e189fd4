package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.crypto.KdfParams;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.OperatorFixture;
import dev.stele.operator.backup.BackupReconciler;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.repository.Repositories;
import dev.stele.operator.repository.RepositoryReconciler;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.operator.store.Place;
import dev.stele.operator.store.StoreFactory;
import dev.stele.repo.Repository;
import dev.stele.s3.BucketConfig;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RefusingBlobStore;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A filesystem location with its default repository Ready, the backup and restore reconcilers wired
 * to the mock API server, and every store they open audited (one audit per path, so a name written
 * twice across passes, and across a simulated restart, is caught). Only public API of {@code
 * dev.stele.operator} is used, as another package would (and {@link
 * OperatorFixture#filesystemLocation}, the location every operator test uses).
 */
final class RestoreFixture {
  /** The image the fixture's operator runs, and so its restore-wait containers. */
  static final String IMAGE = "registry.example/stele:restore-test";

  static final String NS = "stele";

  final KubernetesClient client;
  final MutableClock clock = new MutableClock(Instant.now());
  final List<AuditingBlobStore> audits = new CopyOnWriteArrayList<>();
  final Settings settings;
  final BackupReconciler backups;
  RestoreReconciler restores;

  /** Creates of names under this prefix fail (null: none). */
  volatile String refuse;

  private final Map<String, AuditingBlobStore> stores = new ConcurrentHashMap<>();

  RestoreFixture(KubernetesClient client, Path base) {
    this.client = client;
    StoreFactory real = new DefaultStoreFactory(clock);
    StoreFactory audited =
        new StoreFactory() {
          @Override
          public BucketConfig inspect(Place place) throws IOException {
            return real.inspect(place);
          }

          @Override
          public BlobStore open(Place place, String path) {
            return stores.computeIfAbsent(
                place.url(path),
                k -> {
                  try {
                    var audit =
                        new AuditingBlobStore(
                            new RefusingBlobStore(real.open(place, path), () -> refuse), clock);
                    audits.add(audit);
                    return audit;
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
          }
        };
    settings = new Settings(clock, audited, RestoreFixture::cheapKdf).withImage(IMAGE);
    backups = new BackupReconciler(client, settings);
    restores = new RestoreReconciler(client, settings);

    var spec = OperatorFixture.filesystemLocation(base);
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName("default").withNamespace(NS).build());
    bsl.setSpec(spec);
    client.resource(bsl).create();
    var metrics = new OperatorMetrics(new SimpleMeterRegistry());
    new LocationReconciler(client, settings, metrics)
        .reconcile(get(BackupStorageLocation.class, "default"), null);
    new RepositoryReconciler(client, settings, metrics)
        .reconcile(get(BackupStorageLocationRepository.class, "default"), null);
    assertThat(get(BackupStorageLocationRepository.class, "default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
  }

  static KdfParams cheapKdf() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return KdfParams.argon2id(64, 1, salt);
  }

  <T extends io.fabric8.kubernetes.api.model.HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(NS).withName(name).get();
  }

  /** A Backup run to its end by the backup reconciler. */
  Backup backup(String name, BackupSpec spec) {
    var b = new Backup();
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    b.setSpec(spec);
    client.resource(b).create();
    backups.reconcile(get(Backup.class, name), null);
    return get(Backup.class, name);
  }

  Restore restore(String name, RestoreSpec spec) {
    var r = new Restore();
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    r.setSpec(spec);
    return client.resource(r).create();
  }

  /** One pass of the restore reconciler; returns the Restore afterwards. */
  Restore pass(String name) {
    restores.reconcile(get(Restore.class, name));
    return get(Restore.class, name);
  }

  /** A fresh reconciler, as a restarted operator has, over the same cluster and stores. */
  void restart() {
    restores = new RestoreReconciler(client, settings);
  }

  Repository openRepository() throws Exception {
    return new Repositories(client, settings)
        .open(get(BackupStorageLocationRepository.class, "default"));
  }

  /** Results snapshots of this restore (by its uid). */
  List<SnapshotCatalog.Entry> results(Repository repo, Restore restore) throws IOException {
    return new SnapshotCatalog(repo)
        .list().stream()
            .filter(e -> e.manifest().tags().contains(SteleApi.RESTORE_TAG))
            .filter(
                e ->
                    restore
                        .getMetadata()
                        .getUid()
                        .equals(e.manifest().labels().get(SteleApi.RESTORE_UID_LABEL)))
            .toList();
  }

  List<PodVolumeRestore> volumeRequests(Restore restore) {
    return client
        .resources(PodVolumeRestore.class)
        .inNamespace(NS)
        .withLabel(SteleApi.RESTORE_UID_LABEL, restore.getMetadata().getUid())
        .list()
        .getItems();
  }

  List<String> eventReasons(String involved) {
    return OperatorFixture.eventReasons(client, involved);
  }

  void assertWriteOnce() {
    OperatorFixture.assertWriteOnce(audits);
  }
}
