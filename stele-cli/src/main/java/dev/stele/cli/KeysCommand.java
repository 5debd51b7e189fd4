package dev.stele.cli;

import dev.stele.repo.KeyBlob;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stele repo keys …}: one key blob per password; add, list, remove. */
@Command(
    name = "keys",
    description = "Manage the passwords that open a repository.",
    subcommands = {KeysCommand.Add.class, KeysCommand.ListKeys.class, KeysCommand.Remove.class})
final class KeysCommand extends GroupCommand {

  /** A live key blob: what the public part of it says. */
  record Key(String id, Instant created, String host, boolean current) {}

  static List<Key> keys(Repository repo) throws IOException {
    return repo.keys().stream()
        .map(
            k ->
                new Key(
                    k.name().substring(KeyBlob.PREFIX.length()),
                    k.created(),
                    k.host(),
                    k.current()))
        .toList();
  }

  @Command(name = "add", description = "Add a password.")
  static final class Add extends SteleCommand {
    @Mixin RepositoryOptions repository;
    @Mixin KdfOptions kdf;

    @Option(
        names = "--new-password-file",
        paramLabel = "FILE",
        description = "Read the new password from FILE (default: $STELE_NEW_PASSWORD, or ask).")
    java.nio.file.Path newPasswordFile;

    @Override
    public Integer call() throws Exception {
      try (Repository repo = repository.open(env())) {
        char[] password =
            Passwords.fresh(newPasswordFile, Passwords.NEW_PASSWORD, "password", env());
        String name = repo.addKey(password, kdf.params());
        out().println("added key " + shortId(name.substring(KeyBlob.PREFIX.length())));
      }
      return ExitCode.OK;
    }
  }

  @Command(name = "list", description = "List the passwords (key blobs); * marks the one in use.")
  static final class ListKeys extends SteleCommand {
    @Mixin RepositoryOptions repository;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      try (Repository repo = repository.open(env())) {
        List<Key> keys = keys(repo);
        if (json) {
          out().println(Format.json(keys));
          return ExitCode.OK;
        }
        out().printf("  %-10s %-19s %s%n", "ID", "CREATED", "HOST");
        for (Key k : keys) {
          out()
              .printf(
                  "%s %-10s %-19s %s%n",
                  k.current() ? "*" : " ", shortId(k.id()), Format.time(k.created()), k.host());
        }
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "remove",
      description = "Remove a password: its key blob is tombstoned and no longer opens.")
  static final class Remove extends SteleCommand {
    @Mixin RepositoryOptions repository;

    @Parameters(paramLabel = "ID", description = "Key id or a unique prefix of one.")
    String id;

    @Override
    public Integer call() throws Exception {
      try (Repository repo = repository.open(env())) {
        List<Key> matches = keys(repo).stream().filter(k -> k.id().startsWith(id)).toList();
        if (matches.isEmpty()) {
          throw CliException.notFound("no key " + id);
        }
        if (matches.size() > 1) {
          throw CliException.usage("key prefix " + id + " is ambiguous");
        }
        Key key = matches.get(0);
        if (key.current()) {
          throw CliException.usage(
              "refusing to remove key "
                  + shortId(key.id())
                  + ": it is the one in use; open with another password to remove it");
        }
        repo.removeKey(KeyBlob.PREFIX + key.id(), "repo keys remove");
        out().println("removed key " + shortId(key.id()));
      }
      return ExitCode.OK;
    }
  }

  static String shortId(String hex) {
    return hex.length() > 8 ? hex.substring(0, 8) : hex;
  }
}
