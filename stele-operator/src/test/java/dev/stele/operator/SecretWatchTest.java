package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.Place;
import dev.stele.operator.store.StoreFactory;
import dev.stele.s3.BucketConfig;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corrected Secret takes effect at once: the running operator ({@link SteleOperator#start})
 * watches the credentials Secret of a location and the password Secret of a repository. The
 * location's validation frequency and the repository's recheck are an hour, and every wait below
 * ends within {@link Await#DEFAULT_TIMEOUT}, so only the watch explains each change of phase.
 *
 * <p>The location is a directory; the store in front of it refuses every access key but {@code AK},
 * as an S3 server refuses an unknown key ({@code InvalidAccessKeyId}).
 */
@EnableKubernetesMockClient(crud = true)
class SecretWatchTest {
  static KubernetesClient client;

  private static final String KEY = "AK";

  @TempDir Path base;
  OperatorFixture op;
  SteleOperator operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.close();
    }
    op.assertWriteOnce();
  }

  void credentials(String accessKey) {
    op.secret(
        "cloud-credentials",
        Map.of(
            "cloud", "[default]\naws_access_key_id=" + accessKey + "\naws_secret_access_key=S\n"));
  }

  BackupStorageLocation awaitLocation(LocationPhase phase) {
    return Await.until(
        "location " + phase,
        () -> op.bsl("default"),
        b -> b.getStatus() != null && b.getStatus().phase == phase);
  }

  BackupStorageLocationRepository awaitRepository(RepositoryPhase phase) {
    return Await.until(
        "repository " + phase,
        () -> op.bslr("default"),
        r -> r.getStatus() != null && r.getStatus().phase == phase);
  }

  /** The fixture's stores, behind a server that knows only the access key {@link #KEY}. */
  StoreFactory checkingKeys() {
    return new StoreFactory() {
      @Override
      public BucketConfig inspect(Place place) throws IOException {
        check(place);
        return op.stores.inspect(place);
      }

      @Override
      public BlobStore open(Place place, String path) throws IOException {
        check(place);
        return op.stores.open(place, path);
      }

      private void check(Place place) throws IOException {
        if (place.keys() == null || !KEY.equals(place.keys().accessKey())) {
          throw new IOException(
              "InvalidAccessKeyId: The AWS Access Key Id you provided does not exist (403)");
        }
      }
    };
  }

  @Test
  void correctedSecretsTakeEffectAtOnce() throws Exception {
    op = new OperatorFixture(client, Clock.systemUTC());
    Files.createDirectories(base.resolve("bucket"));
    Duration hour = Duration.ofHours(1);
    operator =
        SteleOperator.start(
            client,
            new Settings(Clock.systemUTC(), checkingKeys(), OperatorFixture::cheapKdf, hour),
            -1,
            false);

    // Wrong credentials: Unavailable, and no repository yet.
    credentials("WRONG");
    var spec = OperatorFixture.filesystemLocation(base);
    spec.credential = new SecretKeySelector("cloud", "cloud-credentials", false);
    spec.validationFrequency = "1h";
    op.bsl("default", spec);
    String validated = awaitLocation(LocationPhase.UNAVAILABLE).getStatus().lastValidationTime;
    assertThat(op.bsl("default").getStatus().message).contains("refused the credentials");

    // kubectl edit secret cloud-credentials: Available, and its default repository Ready.
    credentials(KEY);
    assertThat(awaitLocation(LocationPhase.AVAILABLE).getStatus().lastValidationTime)
        .isNotEqualTo(validated);
    String id = awaitRepository(RepositoryPhase.READY).getStatus().repositoryID;
    String password = op.secretValue("default-repository-password", "password");

    // A wrong password in the repository's Secret: NotReady, though it was open with the right one.
    op.secret("default-repository-password", Map.of("password", "not the password"));
    assertThat(awaitRepository(RepositoryPhase.NOT_READY).getStatus().message)
        .contains("does not open the repository");

    // Corrected: Ready again, the same repository.
    op.secret("default-repository-password", Map.of("password", password));
    assertThat(awaitRepository(RepositoryPhase.READY).getStatus().repositoryID).isEqualTo(id);
    assertThat(op.eventReasons("default")).contains("NotReady", "Ready");
  }
}
