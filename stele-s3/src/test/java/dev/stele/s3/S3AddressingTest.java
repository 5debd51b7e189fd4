package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Where the client sends a request and which {@code Host} it signs: the bucket in the host name on
 * AWS and wherever path-style is not asked for, in the path otherwise and for an endpoint given as
 * an address. Only path-style runs against a server here (RGW), so the rest is checked as strings.
 */
class S3AddressingTest {
  private static S3Http.Target target(S3Location location, String key) throws IOException {
    S3Http http = S3Http.connect(location, "eu-west-3", S3Signing.credentials(location), List.of());
    return http.target(key, new TreeMap<>(Map.of("versionId", "v 1")));
  }

  private static S3Location at(String endpoint) {
    S3Location location =
        S3Location.of("backups", "r").withKeys(new AwsKeys("key", "secret", null));
    return endpoint == null ? location : location.withEndpoint(URI.create(endpoint));
  }

  @Test
  void onAwsTheBucketIsInTheRegionsHostName() throws IOException {
    S3Http.Target t = target(at(null), "r/packs/a b");
    assertThat(t.url())
        .isEqualTo("https://backups.s3.eu-west-3.amazonaws.com/r/packs/a%20b?versionId=v%201");
    assertThat(t.host()).isEqualTo("backups.s3.eu-west-3.amazonaws.com");
    assertThat(t.path()).isEqualTo("/r/packs/a%20b");
  }

  @Test
  void pathStyleKeepsTheHostAndItsPort() throws IOException {
    S3Http.Target t = target(at("http://rgw.example:7480").withPathStyle(true), "r/config");
    assertThat(t.url()).isEqualTo("http://rgw.example:7480/backups/r/config?versionId=v%201");
    assertThat(t.host()).isEqualTo("rgw.example:7480");
    assertThat(t.path()).isEqualTo("/backups/r/config");
  }

  @Test
  void anEndpointOfItsOwnWithoutPathStyleGetsTheBucketInItsName() throws IOException {
    S3Http.Target t = target(at("https://minio.example"), "r/config");
    assertThat(t.url()).isEqualTo("https://backups.minio.example/r/config?versionId=v%201");
    assertThat(t.host()).isEqualTo("backups.minio.example");
  }

  @Test
  void anAddressCarriesTheBucketInThePathAndADefaultPortIsNotSigned() throws IOException {
    S3Http.Target t = target(at("https://10.0.0.7:443"), "r/config");
    assertThat(t.url()).isEqualTo("https://10.0.0.7:443/backups/r/config?versionId=v%201");
    assertThat(t.host()).isEqualTo("10.0.0.7");
  }

  @Test
  void theBucketItselfIsItsRoot() throws IOException {
    S3Location location = at(null);
    S3Http http = S3Http.connect(location, "eu-west-3", S3Signing.credentials(location), List.of());
    S3Http.Target t = http.target(null, new TreeMap<>(Map.of("versioning", "")));
    assertThat(t.url()).isEqualTo("https://backups.s3.eu-west-3.amazonaws.com/?versioning=");
    assertThat(t.path()).isEqualTo("/");
  }
}
