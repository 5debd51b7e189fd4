package dev.stele.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets the selector threads of the JDK's HTTP clients end before the JVM does. On Java 17 the JVM's
 * exit waits up to 300 ms for every thread that is in native code, and an {@code HttpClient}'s
 * selector thread sits in {@code epoll_wait} until its client is collected and a three-second
 * select has timed out: every command that spoke HTTP (the cluster commands through fabric8's JDK
 * client, a repository server) paid 300 ms after its output (docs/performance.md). Once the command
 * is done, a collection clears the clients nothing references any more and an interrupt wakes their
 * selectors, which then see that and end.
 */
final class HttpSelectors {
  private static final long WAIT_MILLIS = 50;

  private HttpSelectors() {}

  /**
   * Ends the selector threads of the HTTP clients no longer in use; returns how many were alive.
   */
  static int stop() {
    List<Thread> selectors = alive();
    if (selectors.isEmpty()) {
      return 0;
    }
    System.gc();
    selectors.forEach(Thread::interrupt);
    try {
      for (Thread t : selectors) {
        t.join(WAIT_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return selectors.size();
  }

  /** The live selector threads of the JDK's HTTP clients ({@code HttpClient-N-SelectorManager}). */
  static List<Thread> alive() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 16];
    int n = root.enumerate(threads, true);
    List<Thread> selectors = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = threads[i].getName();
      if (name.startsWith("HttpClient-") && name.endsWith("-SelectorManager")) {
        selectors.add(threads[i]);
      }
    }
    return selectors;
  }
}
