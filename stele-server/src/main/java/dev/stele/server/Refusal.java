package dev.stele.server;

import java.util.Map;

/**
 * A request refused: the HTTP status, the one line the client gets (as {@code {"error": …}}) and
 * the audit log records, and any headers the answer needs (Retry-After, Content-Range).
 */
final class Refusal extends Exception {
  private static final long serialVersionUID = 1L;

  final int status;
  final Map<String, String> headers;

  Refusal(int status, String message) {
    this(status, message, Map.of());
  }

  Refusal(int status, String message, Map<String, String> headers) {
    super(message, null, false, false);
    this.status = status;
    this.headers = Map.copyOf(headers);
  }

  /**
   * The one answer for a snapshot, path, tree or chunk that does not exist or is not the user's.
   */
  static Refusal notFound(String what) {
    return new Refusal(404, "no such " + what);
  }
}
