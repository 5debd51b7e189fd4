package dev.stele.server;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stele.repo.Repository;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;

/**
 * The repository server: one open repository served over HTTPS (docs/server.md). It holds the
 * repository's key; users log in with their own passwords and get only what their access rules
 * allow. Close it to stop listening; the repository stays the caller's.
 */
public final class RepositoryServer implements Closeable {
  /** Failed logins in a row before each further one must wait. */
  private static final int FREE_FAILURES = 3;

  private static final Duration MAX_WAIT = Duration.ofMinutes(15);
  private static final int THREADS = 8;

  /** How often refusals counted since are sent as Events. */
  private static final Duration EVENTS_EVERY = Duration.ofSeconds(5);

  private final HttpsServer http;
  private final ExecutorService threads;
  private final RenewingKeys keys;
  private final ScheduledExecutorService eventThread;
  private final RefusalEvents events;

  private RepositoryServer(
      HttpsServer http,
      ExecutorService threads,
      RenewingKeys keys,
      ScheduledExecutorService eventThread,
      RefusalEvents events) {
    this.http = http;
    this.threads = threads;
    this.keys = keys;
    this.eventThread = eventThread;
    this.events = events;
  }

  /**
   * Starts serving {@code repo}. The certificate, the users directory and the access file are
   * checked first, so that a mistake in any stops the start with its one line.
   */
  public static RepositoryServer start(Repository repo, ServerOptions o) throws IOException {
    return start(repo, o, event -> {}, RestoreRequests.NONE);
  }

  /**
   * Starts serving {@code repo}, with refusals as Warning Events in {@code events} (one per user
   * and reason per minute, with a count) and users' requests to restore to a pod volume sent to
   * {@code requests}.
   */
  public static RepositoryServer start(
      Repository repo, ServerOptions o, EventSink events, RestoreRequests requests)
      throws IOException {
    return start(
        repo, o, events, requests, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
  }

  /**
   * As {@link #start(Repository, ServerOptions, EventSink, RestoreRequests)}, with limits paced by
   * {@code pause}.
   */
  static RepositoryServer start(
      Repository repo,
      ServerOptions o,
      EventSink events,
      RestoreRequests requests,
      Bandwidth.Pause pause)
      throws IOException {
    RenewingKeys keys = new RenewingKeys(o.tlsCert(), o.tlsKey(), o.clock(), o.recheck());
    if (!Files.isDirectory(o.users())) {
      throw new IOException("users directory " + o.users() + " is not a directory");
    }
    AccessFile access = new AccessFile(o.access(), o.clock(), o.recheck());
    access.rules();
    RefusalEvents refusals = new RefusalEvents(events, o.clock());
    Api api =
        new Api(
            repo,
            new Users(o.users()),
            new Sessions(o.clock(), o.idle(), o.absolute()),
            new Throttle(o.clock(), FREE_FAILURES, MAX_WAIT),
            access,
            new Snapshots(repo, o.clock(), o.recheck()),
            new Audit(o.audit()),
            new Bandwidth(o.clock(), pause),
            refusals,
            requests,
            o.clock());
    // The JDK's server writes an answer's headers and its body apart: with Nagle's algorithm on,
    // the client's delayed ACK holds each small answer some 40 ms, and a restore walks its trees
    // one request each. (Read once, when the first server of the process is made.)
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpsServer http = HttpsServer.create(o.listen(), 64);
    SSLContext tls;
    try {
      tls = SSLContext.getInstance("TLS");
      tls.init(new KeyManager[] {keys}, null, null);
    } catch (GeneralSecurityException e) {
      throw new IOException("no TLS in this Java: " + e.getMessage(), e);
    }
    http.setHttpsConfigurator(new HttpsConfigurator(tls));
    http.createContext("/", api);
    ExecutorService threads =
        Executors.newFixedThreadPool(
            THREADS,
            r -> {
              Thread t = new Thread(r, "stele-server");
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(threads);
    ScheduledExecutorService eventThread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stele-server-events");
              t.setDaemon(true);
              return t;
            });
    long every = EVENTS_EVERY.toMillis();
    // flush never throws (a failing sink is said on standard error), so the schedule goes on.
    ScheduledFuture<?> unused =
        eventThread.scheduleWithFixedDelay(refusals::flush, every, every, TimeUnit.MILLISECONDS);
    http.start();
    return new RepositoryServer(http, threads, keys, eventThread, refusals);
  }

  /**
   * The SHA-256 fingerprint, {@code sha256:<hex>}, of the certificate served now, which clients
   * pin: a renewed certificate's once a handshake has found it.
   */
  public String fingerprint() {
    return keys.fingerprint();
  }

  /** Where it listens (with the port chosen, if 0 was asked for). */
  public InetSocketAddress address() {
    return http.getAddress();
  }

  @Override
  public void close() {
    http.stop(0);
    threads.shutdownNow();
    eventThread.shutdownNow();
    events.flush(); // the last refusals' counts
  }
}
