package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.location.Places;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.Rgw;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Velero's worst case on WORM storage, on a server that enforces both object lock and bucket
 * policies (Ceph RGW): the backup's manifest write is refused by the server itself. The Backup must
 * say Failed with the server's answer — never Completed over a bucket that disagrees — and the
 * bucket must hold no manifest for it.
 */
@EnableKubernetesMockClient(crud = true)
class RgwBackupIT {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  static S3Client s3() {
    Rgw rgw = Rgw.shared();
    return S3Client.builder()
        .endpointOverride(rgw.endpoint())
        .region(Region.of(rgw.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(rgw.accessKey(), rgw.secretKey())))
        .build();
  }

  @Test
  void aManifestTheServerRefusesFailsTheBackupWithTheServersAnswer() throws Exception {
    op = new OperatorFixture(client);
    EndToEndIT.credentials(op, Rgw.shared());
    String bucket = RgwOperatorIT.bucket(true);
    op.bsl("default", RgwOperatorIT.spec(bucket, "Compliance", "1d"));
    assertThat(op.reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("app").endMetadata().build())
        .create();
    FakeKubelet kubelet = new FakeKubelet(client, "node-1", base.resolve("kubelet"));
    var pod = kubelet.run("app", "db", List.of("data"), SteleApi.BACKUP_VOLUMES_ANNOTATION);
    Path volume = kubelet.volumeDir(pod, "data");
    Files.writeString(volume.resolve("table"), "rows\n");

    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    op.backup("refused", spec);
    assertThat(op.reconcileBackup("refused").getStatus().phase)
        .isEqualTo(RunPhase.WAITING_FOR_VOLUMES);

    // The node agent's part: the volume becomes a snapshot in the bucket.
    PodVolumeBackup pvb =
        client.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems().get(0);
    String password = op.secretValue("default-repository-password", "password");
    var place = Places.resolve(client, op.bsl("default"));
    try (Repository repo =
        Repository.open(
            op.stores.open(place, place.repositoryPath("default")),
            password.toCharArray(),
            op.clock)) {
      var result =
          new dev.stele.snapshot.FileBackup(
                  repo,
                  FileBackupOptions.defaults("app/db")
                      .withTags(List.of(SteleApi.POD_VOLUME_TAG))
                      .withLabels(Map.of(SteleApi.PART_OF_LABEL, pvb.getSpec().backupUID))
                      .withExpiry(Instant.parse(pvb.getSpec().expiration)),
                  FileBackupListener.NONE)
              .run(List.of(volume));
      pvb.setStatus(new PodVolumeStatus());
      pvb.getStatus().phase = PodVolumePhase.COMPLETED;
      pvb.getStatus().snapshotID = result.id().hex();
      client.resource(pvb).updateStatus();
    }

    // The bucket's owner now forbids new snapshot manifests: the server refuses the write.
    String policy =
        """
        {"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*",
         "Action":"s3:PutObject","Resource":"arn:aws:s3:::%s/stele/repositories/default/snapshots/*"}]}
        """
            .formatted(bucket);
    try (S3Client s3 = s3()) {
      s3.putBucketPolicy(b -> b.bucket(bucket).policy(policy));
      Backup failed;
      try {
        failed = op.reconcileBackup("refused");
      } finally {
        s3.deleteBucketPolicy(b -> b.bucket(bucket));
      }
      BackupStatus s = failed.getStatus();
      assertThat(s.phase).isEqualTo(RunPhase.FAILED);
      assertThat(s.message)
          .startsWith("writing the backup manifest failed, so the backup does not exist")
          .containsIgnoringCase("AccessDenied");
      assertThat(s.snapshotID).isNull();
      assertThat(op.eventReasons("refused")).contains("Failed");
    }
    // Failed is final, and the bucket agrees: parts, but no backup manifest.
    assertThat(op.reconcileBackup("refused").getStatus().phase).isEqualTo(RunPhase.FAILED);
    try (Repository repo =
        Repository.open(
            op.stores.open(place, place.repositoryPath("default")),
            password.toCharArray(),
            op.clock)) {
      assertThat(new SnapshotCatalog(repo).list())
          .extracting(e -> e.manifest().tags())
          .containsExactlyInAnyOrder(
              List.of(SteleApi.RESOURCES_TAG), List.of(SteleApi.POD_VOLUME_TAG));
    }
  }
}
