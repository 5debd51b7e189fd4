package dev.stele.s3;

import dev.stele.blob.BlobNames;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Where a repository lives in S3 and how to reach it: {@code s3://bucket/prefix} plus the options
 * that a URL alone cannot carry.
 *
 * <p>Blob {@code name} is stored under key {@code prefix/name} ({@code name} alone for an empty
 * prefix). The URL may carry the options as a query, {@code
 * s3://bucket/prefix?endpoint=http://127.0.0.1:7480&region=us-east-1&path-style=true}, which is
 * handy where only one string can be configured.
 *
 * @param bucket the bucket name
 * @param prefix the key prefix, without leading or trailing {@code /}; empty for the whole bucket
 * @param endpoint the server, or null for AWS itself
 * @param region the signing region, or null for the environment's, a profile's or the instance
 *     metadata's (then {@code us-east-1}), see {@link S3Signing}
 * @param pathStyle address the bucket in the path ({@code host/bucket/key}), as most servers other
 *     than AWS want
 * @param caCert a PEM file of certificates to trust for HTTPS, or null for the JVM's defaults
 * @param keys explicit keys, or null for the environment's, a profile's or a role's (where the AWS
 *     SDK's default chain would look)
 * @param profile a profile of {@code ~/.aws/credentials} to use, or null
 */
public record S3Location(
    String bucket,
    String prefix,
    @Nullable URI endpoint,
    @Nullable String region,
    boolean pathStyle,
    @Nullable Path caCert,
    @Nullable AwsKeys keys,
    @Nullable String profile) {

  public S3Location {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(prefix, "prefix");
    if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw new IllegalArgumentException("not an S3 bucket name: " + bucket);
    }
    if (!prefix.isEmpty()) {
      BlobNames.check(prefix);
    }
  }

  /** {@code s3://bucket} or {@code s3://bucket/some/prefix}, with optional query options. */
  public static S3Location parse(URI uri) {
    if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("s3")) {
      throw new IllegalArgumentException("not an s3:// URL: " + uri);
    }
    String bucket = uri.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket in " + uri);
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    Map<String, String> options = new HashMap<>();
    String query = uri.getRawQuery();
    if (query != null && !query.isEmpty()) {
      // Limit 0 drops trailing empty strings: a trailing "&" is ignored.
      for (String pair : query.split("&", 0)) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
        if (!URL_OPTIONS.contains(key)) {
          throw new IllegalArgumentException(
              "unknown option '" + key + "' in " + uri.toString().replaceAll("\\?.*", ""));
        }
        options.put(key, eq < 0 ? "true" : decode(pair.substring(eq + 1)));
      }
    }
    return of(bucket, path).withOptions(options);
  }

  /** {@code bucket}/{@code prefix} on AWS, with the default region and credentials. */
  public static S3Location of(String bucket, String prefix) {
    return new S3Location(bucket, prefix, null, null, false, null, null, null);
  }

  /** The options a URL's query may carry; {@link #withOptions} also takes the credentials. */
  private static final Set<String> URL_OPTIONS =
      Set.of("endpoint", "region", "path-style", "ca-cert", "profile");

  /**
   * This location with options given as text, the one place where strings become S3 settings (URL
   * queries, the command line, the operator's locations all come here): {@code endpoint} (a URL),
   * {@code region}, {@code path-style} ({@code true} turns it on), {@code ca-cert} (a PEM file),
   * and either {@code profile} or both {@code access-key} and {@code secret-key}, with {@code
   * session-token} for temporary keys (a profile wins; one key without the other is ignored). Other
   * names are ignored.
   *
   * @throws IllegalArgumentException if a value is malformed
   */
  public S3Location withOptions(Map<String, String> options) {
    S3Location l = this;
    if (options.containsKey("endpoint")) {
      l = l.withEndpoint(URI.create(options.get("endpoint")));
    }
    if (options.containsKey("region")) {
      l = l.withRegion(options.get("region"));
    }
    if (Boolean.parseBoolean(options.get("path-style"))) {
      l = l.withPathStyle(true);
    }
    if (options.containsKey("ca-cert")) {
      l = l.withCaCert(Path.of(options.get("ca-cert")));
    }
    if (options.containsKey("profile")) {
      l = l.withProfile(options.get("profile"));
    } else if (options.containsKey("access-key") && options.containsKey("secret-key")) {
      l =
          l.withKeys(
              new AwsKeys(
                  options.get("access-key"),
                  options.get("secret-key"),
                  options.get("session-token")));
    }
    return l;
  }

  /** The key of blob {@code name}. */
  public String key(String name) {
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** The key prefix under which every blob of this location lives. */
  String keyPrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }

  public S3Location withEndpoint(URI endpoint) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  public S3Location withRegion(String region) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  public S3Location withPathStyle(boolean pathStyle) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  public S3Location withCaCert(Path caCert) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  public S3Location withKeys(AwsKeys keys) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  public S3Location withProfile(String profile) {
    return new S3Location(bucket, prefix, endpoint, region, pathStyle, caCert, keys, profile);
  }

  /** The URL, {@code s3://bucket/prefix}, plus the endpoint if there is one; never a secret. */
  @Override
  public String toString() {
    String url = "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    return endpoint == null ? url : url + " at " + endpoint;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
