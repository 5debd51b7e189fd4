package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.Schedule;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.Place;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the tests of a backup's life after it is written share: a cluster with a filesystem location
 * and its default repository, a namespace to back up, and the repository opened through the same
 * audited store the reconcilers use.
 */
final class Lifecycle {
  private Lifecycle() {}

  /** Removes what an earlier test of the class left in the shared mock cluster. */
  static void clean(KubernetesClient client) {
    client.resources(Schedule.class).inAnyNamespace().delete();
    client.resources(DeleteBackupRequest.class).inAnyNamespace().delete();
    client.resources(PodVolumeBackup.class).inAnyNamespace().delete();
    client.resources(Backup.class).inAnyNamespace().delete();
    client.resources(BackupStorageLocation.class).inAnyNamespace().delete();
    client.resources(BackupStorageLocationRepository.class).inAnyNamespace().delete();
    client.secrets().inAnyNamespace().delete();
    client.configMaps().inAnyNamespace().delete();
    client.namespaces().delete();
    client.v1().events().inAnyNamespace().delete();
  }

  static BackupStorageLocationSpec location(Path base, String lockMode, String minimum) {
    var spec = OperatorFixture.filesystemLocation(base);
    if (lockMode != null) {
      spec.objectLock = new BackupStorageLocationSpec.ObjectLock();
      spec.objectLock.mode = lockMode;
      spec.objectLock.minimumRetention = minimum;
    }
    return spec;
  }

  /** Location {@code default} and its repository, Ready, and a namespace {@code app} to back up. */
  static void world(OperatorFixture op, BackupStorageLocationSpec spec) {
    op.defaultRepository(spec);
    for (String ns : List.of(NS, "app")) {
      op.client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .createOr(r -> r.update());
    }
    op.client
        .configMaps()
        .inNamespace("app")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("mode", "fast")
                .build())
        .createOr(r -> r.update());
  }

  static BackupSpec appSpec(String ttl) {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    spec.ttl = ttl;
    return spec;
  }

  static Settings settings(OperatorFixture op) {
    return new Settings(op.time, op.stores, OperatorFixture::cheapKdf);
  }

  /** The audited store of the default repository, the one the reconcilers write through. */
  static BlobStore store(OperatorFixture op, Path base) throws IOException {
    Place place =
        new Place("filesystem", "bucket", "velero", Map.of("path", base.toString()), null, null);
    return op.stores.open(place, place.repositoryPath("default"));
  }

  static Repository open(OperatorFixture op, Path base) throws IOException {
    String password = op.secretValue("default-repository-password", "password");
    return Repository.open(store(op, base), password.toCharArray(), op.time);
  }
}
