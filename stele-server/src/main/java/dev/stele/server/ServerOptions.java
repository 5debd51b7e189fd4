package dev.stele.server;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * How a {@link RepositoryServer} runs.
 *
 * @param listen the address and port to listen on (port 0: any free one)
 * @param tlsCert PEM certificate, then its chain
 * @param tlsKey PEM private key
 * @param users the users directory ({@code Users})
 * @param access the access rules' JSON file ({@code AccessRules})
 * @param audit where audit lines go
 * @param clock the clock sessions, throttling and re-reading go by
 * @param idle how long a session lasts without a request
 * @param absolute how long a session lasts at most
 * @param recheck how often the access file is read and the snapshots listed again
 */
public record ServerOptions(
    InetSocketAddress listen,
    Path tlsCert,
    Path tlsKey,
    Path users,
    Path access,
    PrintStream audit,
    Clock clock,
    Duration idle,
    Duration absolute,
    Duration recheck) {
  /** Sessions idle for 30 minutes or 12 hours old end; files are read again every 5 seconds. */
  public static ServerOptions of(
      InetSocketAddress listen,
      Path tlsCert,
      Path tlsKey,
      Path users,
      Path access,
      PrintStream audit) {
    return new ServerOptions(
        listen,
        tlsCert,
        tlsKey,
        users,
        access,
        audit,
        Clock.systemUTC(),
        Duration.ofMinutes(30),
        Duration.ofHours(12),
        Duration.ofSeconds(5));
  }

  public ServerOptions withClock(Clock newClock) {
    return new ServerOptions(
        listen, tlsCert, tlsKey, users, access, audit, newClock, idle, absolute, recheck);
  }

  public ServerOptions withRecheck(Duration every) {
    return new ServerOptions(
        listen, tlsCert, tlsKey, users, access, audit, clock, idle, absolute, every);
  }
}
