package dev.stele.cli;

import picocli.CommandLine.Command;

/**
 * {@code stele repo …}: create a repository, show it, manage its passwords; connect to a repository
 * server.
 */
@Command(
    name = "repo",
    description =
        "Create and inspect repositories; manage their passwords; connect to a repository server.",
    subcommands = {
      RepoInitCommand.class,
      RepoStatusCommand.class,
      KeysCommand.class,
      RepoConnectCommand.class,
      RepoDisconnectCommand.class,
    })
final class RepoCommand extends GroupCommand {}
