package dev.stele.cli;

import picocli.CommandLine.Command;

/** {@code stele repo …}: create a repository, show it, manage its passwords. */
@Command(
    name = "repo",
    description = "Create and inspect repositories; manage their passwords.",
    subcommands = {RepoInitCommand.class, RepoStatusCommand.class, KeysCommand.class})
final class RepoCommand extends GroupCommand {}
