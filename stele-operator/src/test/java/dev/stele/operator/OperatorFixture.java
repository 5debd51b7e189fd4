package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.crypto.KdfParams;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.backup.BackupReconciler;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.repository.RepositoryReconciler;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.operator.store.Place;
import dev.stele.operator.store.StoreFactory;
import dev.stele.s3.BucketConfig;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RefusingBlobStore;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reconcilers wired to a mock API server and a clock, with every store they open wrapped in an
 * {@link AuditingBlobStore}; tests call the reconcilers directly, one pass at a time.
 */
public final class OperatorFixture {
  static final String NS = "stele";

  final KubernetesClient client;
  final MutableClock clock = new MutableClock(Instant.now());
  final List<AuditingBlobStore> audits = new CopyOnWriteArrayList<>();
  final LocationReconciler locations;
  final RepositoryReconciler repositories;
  final BackupReconciler backups;

  /** Creates of names under this prefix fail in every filesystem store (null: none). */
  volatile String refuse;

  /**
   * Listings under this prefix fail in every filesystem store (null: none), as a passing network or
   * storage error would.
   */
  volatile String unlisted;

  final StoreFactory stores;
  private final Map<String, AuditingBlobStore> shared =
      new java.util.concurrent.ConcurrentHashMap<>();

  final java.time.Clock time;

  OperatorFixture(KubernetesClient client) {
    this(client, null);
  }

  /**
   * With {@code time} null the reconcilers and stores read {@link #clock}, which tests move by
   * hand; otherwise {@code time} (the system clock, for the running operator).
   */
  OperatorFixture(KubernetesClient client, java.time.Clock time) {
    this.client = client;
    this.time = time == null ? clock : time;
    StoreFactory real = new DefaultStoreFactory(this.time);
    this.stores =
        new StoreFactory() {
          @Override
          public BucketConfig inspect(Place place) throws IOException {
            return real.inspect(place);
          }

          @Override
          public BlobStore open(Place place, String path) throws IOException {
            if (place.provider().equals("filesystem")) {
              // One audit per path (a filesystem store holds nothing to close), so a name written
              // twice across reconciler passes is caught.
              return shared.computeIfAbsent(
                  place.url(path),
                  k -> {
                    try {
                      return audit(
                          unlisting(new RefusingBlobStore(real.open(place, path), () -> refuse)));
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
            }
            return audit(real.open(place, path));
          }
        };
    Settings settings = new Settings(this.time, stores, OperatorFixture::cheapKdf);
    OperatorMetrics metrics = new OperatorMetrics(new SimpleMeterRegistry());
    locations = new LocationReconciler(client, settings, metrics);
    repositories = new RepositoryReconciler(client, settings, metrics);
    backups = new BackupReconciler(client, settings);
  }

  private BlobStore unlisting(BlobStore store) {
    return new ForwardingBlobStore(store) {
      @Override
      public List<BlobInfo> list(String prefix) throws IOException {
        String failing = unlisted;
        if (failing != null && prefix.startsWith(failing)) {
          throw new IOException("listing " + prefix + ": Connection reset");
        }
        return super.list(prefix);
      }
    };
  }

  private AuditingBlobStore audit(BlobStore store) {
    AuditingBlobStore audit = new AuditingBlobStore(store, time);
    audits.add(audit);
    return audit;
  }

  static KdfParams cheapKdf() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return KdfParams.argon2id(64, 1, salt);
  }

  /**
   * A location on the filesystem under {@code base}: bucket {@code bucket}, prefix {@code velero},
   * no object lock (tests add what they need).
   */
  public static BackupStorageLocationSpec filesystemLocation(Path base) {
    var spec = new BackupStorageLocationSpec();
    spec.provider = "filesystem";
    spec.config = Map.of("path", base.toString());
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = "bucket";
    spec.objectStorage.prefix = "velero";
    return spec;
  }

  /** Creates location {@code default} and reconciles it Available and its repository Ready. */
  void defaultRepository(BackupStorageLocationSpec spec) {
    bsl("default", spec);
    assertThat(reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(reconcileRepository("default").getStatus().phase).isEqualTo(RepositoryPhase.READY);
  }

  BackupStorageLocation bsl(String name, BackupStorageLocationSpec spec) {
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    bsl.setSpec(spec);
    return client.resource(bsl).create();
  }

  BackupStorageLocation bsl(String name) {
    return client.resources(BackupStorageLocation.class).inNamespace(NS).withName(name).get();
  }

  BackupStorageLocationRepository bslr(String name) {
    return client
        .resources(BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .withName(name)
        .get();
  }

  BackupStorageLocationRepository bslr(String name, String location) {
    var spec = new BackupStorageLocationRepositorySpec();
    spec.backupStorageLocation = location;
    return bslr(name, spec);
  }

  BackupStorageLocationRepository bslr(String name, BackupStorageLocationRepositorySpec spec) {
    var r = new BackupStorageLocationRepository();
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    r.setSpec(spec);
    return client.resource(r).create();
  }

  /** One pass of the location reconciler over the stored resource; returns it afterwards. */
  BackupStorageLocation reconcile(String bsl) {
    locations.reconcile(bsl(bsl));
    return bsl(bsl);
  }

  BackupStorageLocationRepository reconcileRepository(String bslr) {
    repositories.reconcile(bslr(bslr));
    return bslr(bslr);
  }

  dev.stele.k8s.api.Backup backup(String name) {
    return client.resources(dev.stele.k8s.api.Backup.class).inNamespace(NS).withName(name).get();
  }

  dev.stele.k8s.api.Backup backup(String name, dev.stele.k8s.api.BackupSpec spec) {
    var b = new dev.stele.k8s.api.Backup();
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    b.setSpec(spec);
    return client.resource(b).create();
  }

  /** One pass of the backup reconciler; returns the resource afterwards. */
  dev.stele.k8s.api.Backup reconcileBackup(String name) {
    backups.reconcile(backup(name));
    return backup(name);
  }

  void secret(String name, Map<String, String> values) {
    var b = new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata();
    values.forEach(
        (k, v) ->
            b.addToData(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    client.secrets().inNamespace(NS).resource(b.build()).createOr(r -> r.update());
  }

  String secretValue(String name, String key) {
    var s = client.secrets().inNamespace(NS).withName(name).get();
    return s == null
        ? null
        : new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
  }

  List<String> eventReasons(String involved) {
    return eventReasons(client, involved);
  }

  /** The reasons of the events in {@link #NS} about {@code involved}, oldest first. */
  public static List<String> eventReasons(KubernetesClient client, String involved) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> involved.equals(e.getInvolvedObject().getName()))
        .map(e -> e.getReason())
        .toList();
  }

  /** Write-once rules held for every store the operator opened. */
  void assertWriteOnce() {
    assertWriteOnce(audits);
  }

  /** Write-once rules held for every one of {@code audits}, of which there is at least one. */
  @SuppressWarnings("exports") // the test kit is on the class path when tests run
  public static void assertWriteOnce(List<AuditingBlobStore> audits) {
    assertThat(audits).isNotEmpty();
    for (AuditingBlobStore a : audits) {
      a.assertNoNameWrittenTwice();
      a.assertNoDeleteOfRetained();
    }
  }
}
