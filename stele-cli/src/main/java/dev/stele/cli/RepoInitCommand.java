package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.s3.BucketConfig;
import dev.stele.s3.S3BlobStore;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele repo init}: a new repository in an empty place. */
@Command(name = "init", description = "Create a repository in an empty directory or S3 prefix.")
final class RepoInitCommand extends StelCommand {
  @Mixin RepositoryOptions repository;
  @Mixin KdfOptions kdf;

  @Option(
      names = "--lock-mode",
      paramLabel = "MODE",
      description = "Retention of every blob: none, governance or compliance (default: none).")
  String lockMode = "none";

  @Option(
      names = "--min-retention",
      paramLabel = "PERIOD",
      description = "How long each blob is retained at least, such as 30d or 12h (default: 0).")
  String minRetention = "0d";

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    RepositoryLocation location = repository.location(env);
    char[] password = Passwords.fresh(repository.passwordFile, Passwords.PASSWORD, "password", env);
    Retention.Mode mode = mode(lockMode);
    Duration minimum = period(minRetention);
    if (mode != Retention.Mode.NONE && minimum.isZero()) {
      throw CliException.usage("--lock-mode " + lockMode + " needs a --min-retention, such as 30d");
    }
    BlobStore store = location.create(env.clock());
    if (store instanceof S3BlobStore s3) {
      BucketConfig bucket = s3.bucketConfig();
      var problem = bucket.problemWith(mode);
      if (problem.isPresent()) {
        store.close();
        throw CliException.usage(problem.get());
      }
      out().println("bucket " + bucket.bucket() + ": " + bucket.summary());
    }
    RepositoryInit options =
        RepositoryInit.defaults(env.clock()).withKdf(kdf.params()).withRetention(mode, minimum);
    try (Repository repo = Repository.init(store, password, options)) {
      out().println("created repository " + repo.format().id() + " at " + location);
      out().println("Keep the password safe: without it the data cannot be read.");
    }
    return ExitCode.OK;
  }

  private static Retention.Mode mode(String text) {
    try {
      return Retention.Mode.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw CliException.usage(
          "--lock-mode must be none, governance or compliance, not '" + text + "'");
    }
  }

  /** {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}. */
  static Duration period(String text) {
    var m = java.util.regex.Pattern.compile("(\\d+)([dhms])").matcher(text.trim());
    if (!m.matches()) {
      throw CliException.usage("not a period: '" + text + "' (examples: 30d, 12h, 90m)");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "d" -> Duration.ofDays(n);
      case "h" -> Duration.ofHours(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
