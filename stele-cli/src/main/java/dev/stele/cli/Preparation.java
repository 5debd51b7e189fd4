package dev.stele.cli;

import dev.stele.repo.Repository;
import org.jspecify.annotations.Nullable;

/**
 * The start of a repository command's open ({@link Repository#prepareToOpen}: JSON, the key
 * derivation's library, libcrypto, zstd), run on a thread of its own while the main thread builds
 * the command model and parses the arguments: both take about a tenth of a second in a fresh JVM,
 * and the second core would otherwise sit idle.
 *
 * <p>Concurrency: the main thread {@link #join joins} it before the command runs, so that the two
 * never initialise the same classes at once (a class-initialisation cycle entered from both ends
 * deadlocks); parsing touches none of what it loads.
 */
final class Preparation {
  private static final Preparation NONE = new Preparation(null);

  private final @Nullable Thread thread;

  private Preparation(@Nullable Thread thread) {
    this.thread = thread;
  }

  /** Starts the preparation if {@code args} name a command of {@link Main#LOCAL_COMMANDS}. */
  static Preparation start(String[] args) {
    int at = Main.commandAt(args);
    if (at < 0 || !Main.LOCAL_COMMANDS.contains(args[at])) {
      return NONE;
    }
    Thread thread = new Thread(Repository::prepareToOpen, "stele-prepare");
    thread.setDaemon(true);
    thread.start();
    return new Preparation(thread);
  }

  boolean started() {
    return thread != null;
  }

  /** Waits until the preparation has ended, if one was started. */
  void join() {
    if (thread == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
