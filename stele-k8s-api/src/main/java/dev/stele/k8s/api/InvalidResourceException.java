package dev.stele.k8s.api;

/** A resource that cannot be acted on as written; the message says what to change. */
public final class InvalidResourceException extends Exception {
  private static final long serialVersionUID = 1L;

  public InvalidResourceException(String message) {
    super(message);
  }
}
