package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --repo} and {@code --password-file}, shared by every command that opens a repository. */
final class RepositoryOptions {
  static final String REPO = "STELE_REPO";

  @Option(
      names = "--repo",
      paramLabel = "REPO",
      description = "Repository: a directory or s3://bucket/prefix (default: $" + REPO + ").")
  String repo;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "Read the password from the first line of FILE (default: $STELE_PASSWORD).")
  Path passwordFile;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "S3 server, for s3:// repositories not on AWS (default: $STELE_S3_ENDPOINT).")
  String endpoint;

  @Option(
      names = "--region",
      paramLabel = "REGION",
      description = "S3 signing region (default: $STELE_S3_REGION, then the AWS SDK's chain).")
  String region;

  @Option(
      names = "--path-style",
      description = "Address S3 buckets in the path, as most non-AWS servers want.")
  boolean pathStyle;

  @Option(
      names = "--ca-cert",
      paramLabel = "FILE",
      description =
          "PEM certificates to trust for an HTTPS S3 endpoint (default: $STELE_S3_CA_CERT).")
  Path caCert;

  @Option(
      names = "--profile",
      paramLabel = "NAME",
      description = "AWS credentials profile (default: $AWS_PROFILE, then the AWS SDK's chain).")
  String profile;

  RepositoryLocation location(CliEnvironment env) {
    Map<String, String> options = new HashMap<>();
    put(options, "endpoint", endpoint, env.variable("STELE_S3_ENDPOINT"));
    put(options, "region", region, env.variable("STELE_S3_REGION"));
    put(options, "path-style", pathStyle ? "true" : null, env.variable("STELE_S3_PATH_STYLE"));
    put(
        options,
        "ca-cert",
        caCert == null ? null : caCert.toString(),
        env.variable("STELE_S3_CA_CERT"));
    put(options, "profile", profile, null);
    // The SDK reads the process environment itself; these make a command's own environment count.
    put(options, "access-key", null, env.variable("AWS_ACCESS_KEY_ID"));
    put(options, "secret-key", null, env.variable("AWS_SECRET_ACCESS_KEY"));
    return new RepositoryLocation(repo != null ? repo : env.variable(REPO), options);
  }

  private static void put(Map<String, String> options, String key, String flag, String variable) {
    String value = flag != null ? flag : variable;
    if (value != null && !value.isEmpty()) {
      options.put(key, value);
    }
  }

  /** Opens the repository, asking for the password if need be. */
  Repository open(CliEnvironment env) throws IOException {
    return open(env, (Instant) null);
  }

  /** Opens the repository as it was at {@code asOf}'s instant, if one was given. */
  Repository open(CliEnvironment env, AsOfOption asOf) throws IOException {
    return open(env, asOf == null ? null : asOf.instant());
  }

  /**
   * Opens the repository (as it was at {@code asOf}, if not null); warnings met while reading, such
   * as a blob read from an older version, are printed as {@code warning: …} lines.
   */
  Repository open(CliEnvironment env, Instant asOf) throws IOException {
    RepositoryLocation location = location(env);
    BlobStore store = location.open(env.clock());
    try {
      if (asOf != null) {
        store = PointInTimeStore.of(store, asOf);
      }
      Repository repo = Repository.open(store, Passwords.current(passwordFile, env), env.clock());
      repo.warnings().forEach(w -> env.err().println("warning: " + w));
      repo.onWarning(w -> env.err().println("warning: " + w));
      return repo;
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }
}
