package dev.stele.operator.store;

import dev.stele.s3.AwsKeys;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@code BackupStorageLocation} with its Secrets resolved: everything a {@link StoreFactory}
 * needs to reach it. {@link #toString()} never shows a secret.
 *
 * @param provider {@code s3} or {@code filesystem}
 * @param bucket the bucket (for {@code filesystem}, a directory under {@code config.path})
 * @param prefix the key prefix, possibly empty
 * @param config the location's provider settings
 * @param keys the keys of {@code spec.credential}, or null for the SDK's default chain
 * @param caCertPem PEM certificates to trust, or null
 */
public record Place(
    String provider,
    String bucket,
    String prefix,
    Map<String, String> config,
    @Nullable AwsKeys keys,
    @Nullable String caCertPem) {

  public Place {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(bucket, "bucket");
    prefix = prefix == null ? "" : prefix;
    config = config == null ? Map.of() : Map.copyOf(config);
  }

  /** The prefix of a repository named {@code name}: {@code <prefix>/repositories/<name>}. */
  public String repositoryPath(String name) {
    return (prefix.isEmpty() ? "" : prefix + "/") + "repositories/" + name;
  }

  /** {@code s3://bucket/prefix/path} or {@code filesystem://bucket/prefix/path}. */
  public String url(String path) {
    return provider + "://" + bucket + (path.isEmpty() ? "" : "/" + path);
  }

  @Override
  public String toString() {
    return url(prefix);
  }
}
