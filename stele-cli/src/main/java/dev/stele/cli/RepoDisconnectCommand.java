package dev.stele.cli;

import picocli.CommandLine.Command;

/** {@code stele repo disconnect}: forgets the connection {@code repo connect} saved. */
@Command(
    name = "disconnect",
    description = "Forget the repository server 'stele repo connect' saved.")
final class RepoDisconnectCommand extends SteleCommand {
  @Override
  public Integer call() throws Exception {
    ServerConnection removed = ServerConnection.remove(env());
    if (removed == null) {
      out().println("not connected");
    } else {
      out().printf("disconnected from %s%n", removed.url());
    }
    return ExitCode.OK;
  }
}
