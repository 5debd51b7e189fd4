package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import picocli.CommandLine.Option;

/** {@code --repo} and {@code --password-file}, shared by every command that opens a repository. */
final class RepositoryOptions {
  static final String REPO = "STELE_REPO";

  @Option(
      names = "--repo",
      paramLabel = "REPO",
      description = "Repository: a directory (default: $" + REPO + ").")
  String repo;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "Read the password from the first line of FILE (default: $STELE_PASSWORD).")
  Path passwordFile;

  RepositoryLocation location(CliEnvironment env) {
    return new RepositoryLocation(repo != null ? repo : env.variable(REPO));
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
