package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.s3.BucketConfig;
import dev.stele.s3.S3BlobStore;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele repo init}: a new repository in an empty place. */
@Command(name = "init", description = "Create a repository in an empty directory or S3 prefix.")
final class RepoInitCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin KdfOptions kdf;

  @Option(
      names = "--lock-mode",
      paramLabel = "MODE",
      description =
          "Object-lock mode for every blob: compliance, governance or none (default none).")
  Retention.Mode lockMode = Retention.Mode.NONE;

  @Option(
      names = "--min-retention",
      paramLabel = "DURATION",
      description =
          "How long each blob is retained at least from its creation (e.g. 30d); needs"
              + " --lock-mode. Snapshots with --retain keep their blobs longer.")
  String minRetention;

  @Option(
      names = "--compression-level",
      paramLabel = "N",
      description =
          "zstd level for every chunk and blob, fixed at creation: 1 (fastest) to 22 (smallest),"
              + " 0 for none (default 3).")
  Integer compressionLevel;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    RepositoryLocation location = repository.location(env);
    Duration minimum =
        minRetention == null ? null : DurationOption.parse("--min-retention", minRetention);
    if (lockMode != Retention.Mode.NONE && minimum == null) {
      throw CliException.usage(
          "--lock-mode "
              + lockMode.name().toLowerCase(java.util.Locale.ROOT)
              + " needs --min-retention");
    }
    if (lockMode == Retention.Mode.NONE && minimum != null) {
      throw CliException.usage("--min-retention needs --lock-mode compliance or governance");
    }
    RepositoryInit options = RepositoryInit.defaults(env.clock()).withKdf(kdf.params());
    if (compressionLevel != null) {
      try {
        options = options.withCompressionLevel(compressionLevel);
      } catch (IllegalArgumentException e) {
        throw CliException.usage("--compression-level " + e.getMessage());
      }
    }
    char[] password = Passwords.fresh(repository.passwordFile, Passwords.PASSWORD, "password", env);
    BlobStore store = location.create(env.clock());
    if (store instanceof S3BlobStore s3) {
      // The bucket, not Stele, must enforce the lock: refuse a mode it cannot honour, and show
      // what it does enforce (versioning, lock, default rule).
      BucketConfig bucket = s3.bucketConfig();
      Optional<String> problem = bucket.problemWith(lockMode);
      if (problem.isPresent()) {
        store.close();
        throw CliException.usage(problem.get());
      }
      out().println("bucket " + bucket.bucket() + ": " + bucket.summary());
    }
    if (lockMode != Retention.Mode.NONE) {
      options = options.withRetention(lockMode, minimum);
      if (!store.capabilities().objectLock()) {
        warn(
            store.describe()
                + " does not enforce object lock itself: Stele records the retention and refuses"
                + " its own deletes, but anyone with access to the storage can still delete");
      }
    }
    try (Repository repo = Repository.init(store, password, options)) {
      out().println("created repository " + repo.format().id() + " at " + location);
      if (lockMode != Retention.Mode.NONE) {
        out()
            .println(
                "every blob is locked ("
                    + lockMode.name().toLowerCase(java.util.Locale.ROOT)
                    + ") for at least "
                    + minRetention
                    + " from its creation");
      }
      out().println("Keep the password safe: without it the data cannot be read.");
    }
    return ExitCode.OK;
  }
}
