package dev.stele.testing;

import java.io.IOException;

/** A failure made up by {@link FaultInjectingBlobStore}, so tests can tell it from a real one. */
public final class InjectedFaultException extends IOException {
  private static final long serialVersionUID = 1L;

  public InjectedFaultException(String message) {
    super("injected fault: " + message);
  }
}
