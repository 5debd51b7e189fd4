package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class S3LocationTest {
  @Test
  void bucketAndPrefixComeFromTheUrl() {
    S3Location location = S3Location.parse(URI.create("s3://backups/team-a/prod/"));
    assertThat(location.bucket()).isEqualTo("backups");
    assertThat(location.prefix()).isEqualTo("team-a/prod");
    assertThat(location.key("packs/ab/cd")).isEqualTo("team-a/prod/packs/ab/cd");
    assertThat(location.keyPrefix()).isEqualTo("team-a/prod/");
    assertThat(location.endpoint()).isNull();
    assertThat(location.pathStyle()).isFalse();
  }

  @Test
  void aBareBucketHoldsBlobsAtTheTop() {
    S3Location location = S3Location.parse(URI.create("s3://my.bucket-1"));
    assertThat(location.prefix()).isEmpty();
    assertThat(location.key("config")).isEqualTo("config");
    assertThat(location.keyPrefix()).isEmpty();
  }

  @Test
  void optionsMayTravelInTheQuery() {
    S3Location location =
        S3Location.parse(
            URI.create(
                "s3://bk1/p?endpoint=http%3A%2F%2F127.0.0.1%3A7480&region=eu-west-1&path-style"
                    + "&ca-cert=/etc/ca.pem&profile=backup"));
    assertThat(location.endpoint()).isEqualTo(URI.create("http://127.0.0.1:7480"));
    assertThat(location.region()).isEqualTo("eu-west-1");
    assertThat(location.pathStyle()).isTrue();
    assertThat(location.caCert()).isEqualTo(Path.of("/etc/ca.pem"));
    assertThat(location.profile()).isEqualTo("backup");
    assertThatThrownBy(() -> S3Location.parse(URI.create("s3://bk1/p?colour=blue")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("colour");
  }

  @Test
  void badUrlsAreRefused() {
    assertThatThrownBy(() -> S3Location.parse(URI.create("gs://bucket/x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.parse(URI.create("s3:///x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.parse(URI.create("s3://Upper/x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.parse(URI.create("s3://bucket/a/../b")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.parse(URI.create("s3://bucket/.hidden")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void secretsNeverShowInTheDescription() {
    S3Location location =
        S3Location.parse(URI.create("s3://bucket/p"))
            .withEndpoint(URI.create("https://s3.example"))
            .withKeys(new AwsKeys("AKIDEXAMPLE", "very-secret", null));
    assertThat(location.toString())
        .isEqualTo("s3://bucket/p at https://s3.example")
        .doesNotContain("very-secret");
    assertThatThrownBy(() -> new AwsKeys("AKID", null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new AwsKeys("ASIATEMPORARY", "temporary-secret", "the-session-token").toString())
        .contains("ASIATEMPORARY")
        .doesNotContain("temporary-secret")
        .doesNotContain("the-session-token");
  }
}
