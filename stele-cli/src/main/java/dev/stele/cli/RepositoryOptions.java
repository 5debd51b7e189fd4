package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.nio.file.Path;
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
    RepositoryLocation location = location(env);
    BlobStore store = location.open(env.clock());
    try {
      return Repository.open(store, Passwords.current(passwordFile, env), env.clock());
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }
}
