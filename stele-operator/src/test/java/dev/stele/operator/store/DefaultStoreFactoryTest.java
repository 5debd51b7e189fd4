package dev.stele.operator.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.s3.AwsKeys;
import dev.stele.s3.S3Location;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A location's settings and keys become the S3 store's location. */
class DefaultStoreFactoryTest {
  @Test
  void theSettingsAndTheSecretsKeysWithTheirSessionTokenReachTheS3Location() throws Exception {
    Place place =
        new Place(
            "s3",
            "backups",
            "velero",
            Map.of(
                "s3Url",
                "http://127.0.0.1:7480",
                "region",
                "eu-west-1",
                "s3ForcePathStyle",
                "true"),
            new AwsKeys("ASIATEMPORARY", "temporary-secret", "the-session-token"),
            null);

    S3Location location = DefaultStoreFactory.s3(place, place.repositoryPath("default"));

    assertThat(location.endpoint()).isEqualTo(URI.create("http://127.0.0.1:7480"));
    assertThat(location.region()).isEqualTo("eu-west-1");
    assertThat(location.pathStyle()).isTrue();
    assertThat(location.prefix()).isEqualTo("velero/repositories/default");
    assertThat(location.keys())
        .isEqualTo(new AwsKeys("ASIATEMPORARY", "temporary-secret", "the-session-token"));
  }

  @Test
  void withoutASecretTheSdksChainIsLeftToFindKeys() throws Exception {
    Place place = new Place("s3", "backups", "", Map.of(), null, null);

    S3Location location = DefaultStoreFactory.s3(place, "repositories/default");

    assertThat(location.keys()).isNull();
  }
}
