package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.server.RepositoryServer;
import dev.stele.server.RestoreRequests;
import dev.stele.server.ServerOptions;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code stele server}: serves the repository over HTTPS to the users of {@code --users}, each
 * seeing what {@code --access} allows (docs/server.md), until SIGTERM or SIGINT.
 */
@Command(
    name = "server",
    description = "Serve the repository over HTTPS to users with their own passwords.")
final class ServerCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      description = "Address to listen on (default: ${DEFAULT-VALUE}).",
      defaultValue = "0.0.0.0:8443")
  String listen;

  @Option(
      names = "--tls-cert",
      required = true,
      paramLabel = "FILE",
      description = "PEM certificate, then its chain (a kubernetes.io/tls Secret's tls.crt).")
  Path tlsCert;

  @Option(
      names = "--tls-key",
      required = true,
      paramLabel = "FILE",
      description = "PEM private key, PKCS#8 or RSA PKCS#1 (tls.key).")
  Path tlsKey;

  @Option(
      names = "--users",
      required = true,
      paramLabel = "DIR",
      description =
          "One file per user, named after the user, holding the password or its bcrypt or"
              + " argon2id hash (a mounted Secret); read again at each login.")
  Path users;

  @Option(
      names = "--access",
      required = true,
      paramLabel = "FILE",
      description = "The access rules, JSON (docs/server.md); read again every few seconds.")
  Path access;

  @Option(
      names = "--audit-log",
      paramLabel = "FILE",
      description = "Append the audit lines to FILE (default: standard output).")
  Path auditLog;

  @Option(
      names = "--resource",
      paramLabel = "NAMESPACE/NAME",
      description =
          "The BackupStorageLocationServer this server runs for (set by the operator): refusals"
              + " become Warning Events on it, one per user and reason per minute with a count;"
              + " users' restore requests become PodVolumeRestores beside it.")
  @Nullable String resource;

  @Override
  public Integer call() throws Exception {
    InetSocketAddress address = address(listen);
    CountDownLatch stopped = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              stopped.countDown();
              try {
                closed.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "stele-server-shutdown");
    // The shutdown hook waits for `closed`, so that the JVM ends only once the server is closed
    // and its last line is out.
    try {
      try (@Nullable ServerEvents events =
              resource == null ? null : ServerEvents.connect(resource);
          Repository repo = repository.open(env());
          PrintStream audit = auditStream();
          RepositoryServer server =
              RepositoryServer.start(
                  repo,
                  ServerOptions.of(address, tlsCert, tlsKey, users, access, audit),
                  events == null ? event -> {} : events,
                  events == null ? RestoreRequests.NONE : events.restoreRequests())) {
        Runtime.getRuntime().addShutdownHook(hook);
        out().println("fingerprint: " + server.fingerprint());
        out()
            .println(
                "stele server listening on https://"
                    + server.address().getHostString()
                    + ":"
                    + server.address().getPort());
        out().flush();
        stopped.await();
      }
      out().println("stele server stopped");
      out().flush();
    } finally {
      closed.countDown();
    }
    return ExitCode.OK;
  }

  private PrintStream auditStream() throws IOException {
    if (auditLog == null) {
      return new PrintStream(env().stdout(), true, StandardCharsets.UTF_8) {
        @Override
        public void close() {
          flush(); // standard output stays open
        }
      };
    }
    return new PrintStream(
        new FileOutputStream(auditLog.toFile(), true), true, StandardCharsets.UTF_8);
  }

  /** {@code HOST:PORT}, the host possibly an IPv6 address in brackets. */
  static InetSocketAddress address(String listen) {
    int colon = listen.lastIndexOf(':');
    String host = colon < 0 ? "" : listen.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      int port = Integer.parseInt(listen.substring(colon + 1));
      if (colon <= 0 || port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return new InetSocketAddress(host, port);
    } catch (NumberFormatException e) {
      throw new CliException(ExitCode.USAGE, "--listen wants HOST:PORT, not " + listen);
    }
  }
}
