package dev.stele.blob;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * One request run on a daemon thread of its own while the caller goes on, for the independent round
 * trips of opening a store or a repository: one after another, each waits out the other's latency.
 *
 * <p>Concurrency: {@link #get} may be called from any thread, any number of times.
 *
 * @param <T> what the request yields
 */
public final class Aside<T> {
  /** A request that may fail with an {@link IOException}. */
  @FunctionalInterface
  public interface Request<T> {
    T call() throws IOException;
  }

  private final FutureTask<T> task;

  private Aside(FutureTask<T> task) {
    this.task = task;
  }

  /** Starts {@code request} now, on a daemon thread named {@code name}. */
  public static <T> Aside<T> start(String name, Request<T> request) {
    FutureTask<T> task = new FutureTask<>(request::call);
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return new Aside<>(task);
  }

  /**
   * Waits for the request and returns what it yielded, or throws what it threw (an {@link
   * IOException}, an unchecked exception or an error).
   */
  public T get() throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a request");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause); // a Request throws nothing else checked
    }
  }
}
