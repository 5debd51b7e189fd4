package dev.stele.cli;

/** A command that only groups subcommands: run alone, it shows their list and fails as usage. */
public abstract class GroupCommand extends SteleCommand {
  @Override
  public Integer call() {
    spec.commandLine().usage(err());
    return ExitCode.USAGE;
  }
}
