package dev.stele.operator.kube;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;

/**
 * Tells a failure caused by the operator stopping (its reconciler threads interrupted mid-request)
 * from a real one. A reconciler never records the first in a status: the resource would say
 * NotReady or Failed for a reason that is not its own, and nothing would be left running to correct
 * it.
 */
public final class Stopping {
  private Stopping() {}

  /** True if this thread is being stopped, or {@code failure} comes from an interrupt. */
  public static boolean explains(Throwable failure) {
    if (Thread.currentThread().isInterrupted()) {
      return true;
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException
          || t instanceof InterruptedIOException
          || t instanceof ClosedByInterruptException
          || t.getClass().getSimpleName().equals("AbortedException")) {
        return true;
      }
    }
    return false;
  }

  /** Thrown instead of recording a failure the stop caused. */
  public static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Stopped(Throwable cause) {
      super("the operator is stopping", cause);
    }
  }
}
