package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.Repository;
import dev.stele.s3.S3BlobStore;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code --repo} and {@code --password-file}, shared by every command that opens a repository. */
final class RepositoryOptions {
  static final String REPO = "STELE_REPO";
  static final String USER = "STELE_USER";

  @Option(
      names = "--repo",
      paramLabel = "REPO",
      description =
          "Repository: a directory, s3://bucket/prefix, or a repository server's https://HOST:PORT"
              + " (default: $"
              + REPO
              + ", then the server 'stele repo connect' saved).")
  String repo;

  @Option(
      names = "--user",
      paramLabel = "NAME",
      description = "User name on a repository server (default: $" + USER + ").")
  String user;

  @Option(
      names = "--server-cert-fingerprint",
      paramLabel = "sha256:HEX",
      description =
          "The repository server's certificate fingerprint: any other certificate is refused.")
  String serverFingerprint;

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
          "PEM certificates to trust for an HTTPS S3 endpoint (default: $STELE_S3_CA_CERT), or"
              + " for a repository server.")
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
    // The store reads the process environment itself; these make a command's own environment count.
    put(options, "access-key", null, env.variable("AWS_ACCESS_KEY_ID"));
    put(options, "secret-key", null, env.variable("AWS_SECRET_ACCESS_KEY"));
    put(options, "session-token", null, env.variable("AWS_SESSION_TOKEN"));
    return new RepositoryLocation(spec(env), options);
  }

  /**
   * What {@code --repo} names: the flag, else {@code $STELE_REPO}, else the server {@code repo
   * connect} saved, else null.
   */
  private String spec(CliEnvironment env) {
    if (repo != null) {
      return repo;
    }
    String variable = env.variable(REPO);
    if (variable != null) {
      return variable;
    }
    ServerConnection saved = ServerConnection.load(env);
    return saved == null ? null : saved.url();
  }

  /** The connection {@code repo connect} saved, if it is the server these options name. */
  private ServerConnection saved(CliEnvironment env, URI server) {
    ServerConnection saved = ServerConnection.load(env);
    return saved != null && serverUri(saved.url()).equals(server) ? saved : null;
  }

  private static void put(Map<String, String> options, String key, String flag, String variable) {
    String value = flag != null ? flag : variable;
    if (value != null && !value.isEmpty()) {
      options.put(key, value);
    }
  }

  /**
   * Where a reading command finds its snapshots: the repository server {@code --repo} names with
   * {@code https://}, logged in to as {@code --user}; otherwise the repository, opened as {@link
   * #open(CliEnvironment, AsOfOption)} does.
   */
  SnapshotSource source(CliEnvironment env, AsOfOption asOf) throws IOException {
    if (server(env) == null) {
      return SnapshotSource.of(open(env, asOf));
    }
    if (asOf != null && asOf.instant() != null) {
      throw CliException.usage("--as-of reads a bucket's old versions: not through a server");
    }
    return serverSource(env);
  }

  /** The repository server {@code --repo} names, logged in to, or null if it names a repository. */
  ServerSource serverSource(CliEnvironment env) throws IOException {
    URI server = server(env);
    if (server == null) {
      return null;
    }
    ServerConnection saved = saved(env, server);
    String name = user != null ? user : env.variable(USER);
    if ((name == null || name.isEmpty()) && saved != null) {
      name = saved.user();
    }
    if (name == null || name.isEmpty()) {
      throw CliException.usage("a repository server needs a user: give --user or set " + USER);
    }
    ServerTrust trust =
        serverFingerprint == null && caCert == null && saved != null
            ? ServerTrust.of(
                saved.fingerprint(), saved.caCert() == null ? null : Path.of(saved.caCert()))
            : ServerTrust.of(serverFingerprint, caCert);
    return new ServerSource(
        ServerClient.login(
            server,
            trust,
            name,
            Passwords.current(passwordFile, env, "Password of " + name + " on " + server + ": ")));
  }

  /** The repository server {@code --repo} names, or null if it names a repository. */
  private URI server(CliEnvironment env) {
    return serverUri(spec(env));
  }

  /** The server {@code spec} names, or null if it does not start with {@code https://}. */
  static URI serverUri(String spec) {
    if (spec == null || !spec.regionMatches(true, 0, "https://", 0, 8)) {
      return null;
    }
    try {
      URI uri = new URI(spec);
      if (uri.getHost() == null) {
        throw CliException.usage("not a server URL: " + spec + " (expected https://HOST:PORT)");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw CliException.usage("not a server URL: " + spec + " (" + e.getReason() + ")");
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
    if (server(env) != null) {
      throw CliException.usage(
          "a repository server serves only snapshot list, ls, cat and restore: this command needs the"
              + " repository itself");
    }
    RepositoryLocation location = location(env);
    BlobStore store = location.open(env.clock());
    try {
      if (asOf != null) {
        store = PointInTimeStore.of(store, asOf);
      }
      Repository repo = Repository.open(store, Passwords.current(passwordFile, env), env.clock());
      // this user's cache of the repository ($XDG_CACHE_HOME/stele/<id>): retention read back by
      // earlier commands (docs/s3.md)
      @Nullable Path cache = env.userDirectory("XDG_CACHE_HOME", ".cache");
      if (store instanceof S3BlobStore s3 && cache != null) {
        s3.keepRetentionIn(cache.resolve(repo.format().id()), repo.localCacheKey());
      }
      repo.warnings().forEach(w -> env.err().println("warning: " + w));
      repo.onWarning(w -> env.err().println("warning: " + w));
      return repo;
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }
}
