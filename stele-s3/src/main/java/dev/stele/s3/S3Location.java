package dev.stele.s3;

import dev.stele.blob.BlobNames;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
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
 * @param region the signing region, or null for the SDK's default chain (then {@code us-east-1})
 * @param pathStyle address the bucket in the path ({@code host/bucket/key}), as most servers other
 *     than AWS want
 * @param caCert a PEM file of certificates to trust for HTTPS, or null for the JVM's defaults
 * @param accessKey an explicit access key, or null for the SDK's default credential chain
 * @param secretKey the secret for {@code accessKey}
 * @param profile a profile of {@code ~/.aws/credentials} to use, or null
 */
public record S3Location(
    String bucket,
    String prefix,
    @Nullable URI endpoint,
    @Nullable String region,
    boolean pathStyle,
    @Nullable Path caCert,
    @Nullable String accessKey,
    @Nullable String secretKey,
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
    if ((accessKey == null) != (secretKey == null)) {
      throw new IllegalArgumentException("give both an access key and its secret, or neither");
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
    S3Location location = new S3Location(bucket, path, null, null, false, null, null, null, null);
    String query = uri.getRawQuery();
    if (query != null && !query.isEmpty()) {
      // Limit 0 drops trailing empty strings: a trailing "&" is ignored.
      for (String pair : query.split("&", 0)) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
        String value = eq < 0 ? "true" : decode(pair.substring(eq + 1));
        location =
            switch (key) {
              case "endpoint" -> location.withEndpoint(URI.create(value));
              case "region" -> location.withRegion(value);
              case "path-style" -> location.withPathStyle(Boolean.parseBoolean(value));
              case "ca-cert" -> location.withCaCert(Path.of(value));
              case "profile" -> location.withProfile(value);
              default ->
                  throw new IllegalArgumentException(
                      "unknown option '" + key + "' in " + uri.toString().replaceAll("\\?.*", ""));
            };
      }
    }
    return location;
  }

  /** The key of blob {@code name}. */
  public String key(String name) {
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** The key prefix under which every blob of this location lives. */
  public String keyPrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }

  public S3Location withEndpoint(URI endpoint) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
  }

  public S3Location withRegion(String region) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
  }

  public S3Location withPathStyle(boolean pathStyle) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
  }

  public S3Location withCaCert(Path caCert) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
  }

  public S3Location withCredentials(String accessKey, String secretKey) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
  }

  public S3Location withProfile(String profile) {
    return new S3Location(
        bucket, prefix, endpoint, region, pathStyle, caCert, accessKey, secretKey, profile);
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
