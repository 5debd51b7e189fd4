package dev.stele.cli;

import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele repo connect}: logs in to a repository server once, to check the user, the password
 * and the certificate, and saves the connection ({@link ServerConnection}) so that later commands
 * need no {@code --repo}, {@code --user} or fingerprint. The password is not saved: each command
 * takes it again from {@code --password-file}, {@code $STELE_PASSWORD} or the terminal.
 */
@Command(
    name = "connect",
    description =
        "Log in to a repository server once and save the connection (not the password) for later"
            + " commands.")
final class RepoConnectCommand extends SteleCommand {
  @Parameters(paramLabel = "https://HOST:PORT", description = "The repository server.")
  String url;

  @Option(
      names = "--user",
      paramLabel = "NAME",
      description = "User name on the server (default: $" + RepositoryOptions.USER + ").")
  String user;

  @Option(
      names = "--server-cert-fingerprint",
      paramLabel = "sha256:HEX",
      description = "The server's certificate fingerprint: any other certificate is refused.")
  String fingerprint;

  @Option(
      names = "--ca-cert",
      paramLabel = "FILE",
      description = "PEM CA certificates to trust for the server, instead of a fingerprint.")
  Path caCert;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "Read the password from the first line of FILE (default: $STELE_PASSWORD).")
  Path passwordFile;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    URI server = RepositoryOptions.serverUri(url);
    if (server == null) {
      throw CliException.usage("not a server URL: " + url + " (expected https://HOST:PORT)");
    }
    String name = user != null ? user : env.variable(RepositoryOptions.USER);
    if (name == null || name.isEmpty()) {
      throw CliException.usage(
          "a repository server needs a user: give --user or set " + RepositoryOptions.USER);
    }
    ServerTrust trust = ServerTrust.of(fingerprint, caCert);
    char[] password =
        Passwords.current(passwordFile, env, "Password of " + name + " on " + server + ": ");
    ServerClient.login(server, trust, name, password).logout();
    ServerConnection connection =
        new ServerConnection(
            url,
            name,
            trust.pin,
            caCert == null ? null : caCert.toAbsolutePath().normalize().toString());
    Path file = connection.save(env);
    out().printf("connected to %s as %s; saved in %s%n", url, name, file);
    return ExitCode.OK;
  }
}
