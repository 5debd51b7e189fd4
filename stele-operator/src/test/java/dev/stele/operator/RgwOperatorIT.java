package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.repo.Repository;
import dev.stele.s3.AwsKeys;
import dev.stele.s3.S3BlobStore;
import dev.stele.testing.Rgw;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;

/** The reconcilers against the CRUD mock and a real S3 server that enforces object lock (RGW). */
@EnableKubernetesMockClient(crud = true)
class RgwOperatorIT {
  static KubernetesClient client;
  OperatorFixture op;

  @BeforeEach
  void setUp() {
    client.resources(BackupStorageLocation.class).inNamespace(NS).delete();
    client.resources(BackupStorageLocationRepository.class).inNamespace(NS).delete();
    client.secrets().inNamespace(NS).delete();
    client.v1().events().inNamespace(NS).delete();
    op = new OperatorFixture(client);
    Rgw rgw = Rgw.shared();
    op.secret(
        "s3",
        Map.of(
            "cloud",
            "[default]\naws_access_key_id="
                + rgw.accessKey()
                + "\naws_secret_access_key="
                + rgw.secretKey()
                + "\n"));
    op.secret(
        "bad-s3", Map.of("cloud", "[default]\naws_access_key_id=NOPE\naws_secret_access_key=x\n"));
  }

  @AfterEach
  void writeOnce() {
    if (!op.audits.isEmpty()) {
      op.assertWriteOnce();
    }
  }

  static String bucket(boolean locked) {
    try (S3Client s3 = s3()) {
      String name =
          (locked ? "op-lock-" : "op-plain-") + UUID.randomUUID().toString().substring(0, 8);
      s3.createBucket(b -> b.bucket(name).objectLockEnabledForBucket(locked ? true : null));
      return name;
    }
  }

  private static S3Client s3() {
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

  static BackupStorageLocationSpec spec(String bucket, String mode, String minimum) {
    var spec = new BackupStorageLocationSpec();
    spec.provider = "s3";
    spec.config =
        new HashMap<>(
            Map.of(
                "s3Url", Rgw.shared().endpoint().toString(),
                "region", Rgw.shared().region(),
                "s3ForcePathStyle", "true"));
    spec.credential = new SecretKeySelector("cloud", "s3", false);
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = bucket;
    spec.objectStorage.prefix = "stele";
    spec.objectLock = new BackupStorageLocationSpec.ObjectLock();
    spec.objectLock.mode = mode;
    spec.objectLock.minimumRetention = minimum;
    return spec;
  }

  @Test
  void lockedBucketIsAvailableAndItsDefaultRepositoryOpensOutsideTheCluster() throws Exception {
    String bucket = bucket(true);
    op.bsl("default", spec(bucket, "Compliance", "1d"));
    var bsl = op.reconcile("default").getStatus();
    assertThat(bsl.phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(bsl.lock).isEqualTo("compliance/1d");
    assertThat(bsl.versioning).isEqualTo("Enabled");
    assertThat(bsl.objectLockEnabled).isTrue();

    var repo = op.reconcileRepository("default").getStatus();
    assertThat(repo.phase).isEqualTo(RepositoryPhase.READY);
    assertThat(repo.url).isEqualTo("s3://" + bucket + "/stele/repositories/default");
    op.bslr("team-a", "default");
    assertThat(op.reconcileRepository("team-a").getStatus().phase).isEqualTo(RepositoryPhase.READY);

    // What `stele repo status --repo s3://bucket/stele/repositories/team-a` does.
    String password = op.secretValue("team-a-repository-password", "password");
    URI url =
        URI.create(
            "s3://"
                + bucket
                + "/stele/repositories/team-a?endpoint="
                + Rgw.shared().endpoint()
                + "&path-style=true&region=us-east-1");
    try (Repository opened =
        Repository.open(
            S3BlobStore.open(
                dev.stele.s3.S3Location.parse(url)
                    .withKeys(
                        new AwsKeys(Rgw.shared().accessKey(), Rgw.shared().secretKey(), null))),
            password.toCharArray(),
            op.clock)) {
      assertThat(opened.format().id()).isEqualTo(op.bslr("team-a").getStatus().repositoryID);
      assertThat(opened.format().retentionMode().name()).isEqualTo("COMPLIANCE");
    }

    // Delete policy on a compliance bucket: nothing may go yet, and that is reported.
    var deleting = new BackupStorageLocationRepositorySpec();
    deleting.backupStorageLocation = "default";
    deleting.deletionPolicy = "Delete";
    op.bslr("gone", deleting);
    op.reconcileRepository("gone");
    assertThat(op.repositories.cleanup(op.bslr("gone"), null).isRemoveFinalizer()).isTrue();
    assertThat(op.eventReasons("gone")).contains("RepositoryRetained");
  }

  @Test
  void governanceUnderABucketsComplianceRuleIsRefusedUnlessTheSpecSaysSo() {
    String bucket = bucket(true);
    try (S3Client s3 = s3()) {
      s3.putObjectLockConfiguration(
          b ->
              b.bucket(bucket)
                  .objectLockConfiguration(
                      c ->
                          c.objectLockEnabled(ObjectLockEnabled.ENABLED)
                              .rule(
                                  r ->
                                      r.defaultRetention(
                                          d ->
                                              d.mode(ObjectLockRetentionMode.COMPLIANCE)
                                                  .days(1)))));
    }
    op.bsl("weaker", spec(bucket, "Governance", "1d"));
    var refused = op.reconcile("weaker").getStatus();
    assertThat(refused.phase).isEqualTo(LocationPhase.UNAVAILABLE);
    assertThat(refused.defaultRetention).isEqualTo("compliance/1d");
    assertThat(refused.message)
        .startsWith(
            "objectLock.mode Governance is weaker than the default rule of bucket " + bucket)
        .endsWith("or set objectLock.allowWeakerThanBucket: true to accept it");

    var accepted = spec(bucket, "Governance", "1d");
    accepted.objectLock.allowWeakerThanBucket = true;
    op.bsl("accepted", accepted);
    var status = op.reconcile("accepted").getStatus();
    assertThat(status.phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(status.protection).isEqualTo("governance 1d");
    assertThat(op.eventReasons("accepted")).contains("WeakerThanBucket");
  }

  @Test
  void detectOnAVersionedBucketWithoutLockWarnsThatOnlyVersioningProtectsIt() {
    String bucket = bucket(false);
    try (S3Client s3 = s3()) {
      s3.putBucketVersioning(
          b ->
              b.bucket(bucket)
                  .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    }
    op.bsl("versioned", spec(bucket, "Detect", null));
    var status = op.reconcile("versioned").getStatus();
    assertThat(status.phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(status.protection).isEqualTo("versioning only");
    assertThat(status.conditions)
        .anySatisfy(
            c -> {
              assertThat(c.getType()).isEqualTo("Protected");
              assertThat(c.getStatus()).isEqualTo("False");
              assertThat(c.getMessage()).contains("has versioning but no object lock");
            });
    assertThat(op.eventReasons("versioned")).contains("NoObjectLock");
  }

  @Test
  void unusableLocationsSayWhatToChange() {
    op.bsl("nolock", spec(bucket(false), "Compliance", "1d"));
    assertThat(op.reconcile("nolock").getStatus().message)
        .contains("does not have object lock enabled, so it cannot honour objectLock.mode");

    var badKeys = spec(bucket(false), "None", null);
    badKeys.credential = new SecretKeySelector("cloud", "bad-s3", false);
    op.bsl("badkeys", badKeys);
    assertThat(op.reconcile("badkeys").getStatus().message).contains("refused the credentials");

    op.bsl(
        "nobucket",
        spec("no-such-bucket-" + UUID.randomUUID().toString().substring(0, 6), "None", null));
    assertThat(op.reconcile("nobucket").getStatus().message).contains("does not exist at");

    var unreachable = spec(bucket(false), "None", null);
    unreachable.config.put("s3Url", "http://127.0.0.1:9");
    op.bsl("unreachable", unreachable);
    var status = op.reconcile("unreachable").getStatus();
    assertThat(status.phase).isEqualTo(LocationPhase.UNAVAILABLE);
    assertThat(status.message).contains("cannot reach http://127.0.0.1:9");
    assertThat(op.bslr("unreachable")).isNull();
  }
}
