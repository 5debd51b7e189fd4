package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code stele repo init}: a new repository in an empty place. */
@Command(name = "init", description = "Create a repository in an empty directory.")
final class RepoInitCommand extends StelCommand {
  @Mixin RepositoryOptions repository;
  @Mixin KdfOptions kdf;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    RepositoryLocation location = repository.location(env);
    char[] password = Passwords.fresh(repository.passwordFile, Passwords.PASSWORD, "password", env);
    BlobStore store = location.create(env.clock());
    RepositoryInit options = RepositoryInit.defaults(env.clock()).withKdf(kdf.params());
    try (Repository repo = Repository.init(store, password, options)) {
      out().println("created repository " + repo.format().id() + " at " + location);
      out().println("Keep the password safe: without it the data cannot be read.");
    }
    return ExitCode.OK;
  }
}
