package dev.stele.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The web page's three static files (docs/server.md), resources of this module served as they are:
 * no template, no build step, nothing of the user's in them. Everything the page shows it fetches
 * from the API with the session's cookie.
 */
final class Page {
  /**
   * The headers every answer carries, page or API: scripts, styles and fetches only from the server
   * itself (so no inline script runs, even one injected), no framing, no referrer.
   */
  static final Map<String, String> HEADERS =
      Map.of(
          "Content-Security-Policy",
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
              + " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
          "X-Content-Type-Options",
          "nosniff",
          "X-Frame-Options",
          "DENY",
          "Referrer-Policy",
          "no-referrer",
          "Cross-Origin-Opener-Policy",
          "same-origin");

  private static final Map<String, String> TYPES =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "app.js", "text/javascript; charset=utf-8",
          "style.css", "text/css; charset=utf-8");

  private Page() {}

  /** The file a request path names ({@code /} is the page), or null when it names none. */
  static @Nullable String file(List<String> segments) {
    if (segments.isEmpty()) {
      return "index.html";
    }
    return segments.size() == 1 && TYPES.containsKey(segments.get(0)) ? segments.get(0) : null;
  }

  static String type(String file) {
    return TYPES.getOrDefault(file, "application/octet-stream");
  }

  static byte[] read(String file) throws IOException {
    try (InputStream in = Page.class.getResourceAsStream("page/" + file)) {
      if (in == null) {
        throw new IOException("the page's " + file + " is missing from the server's jar");
      }
      return in.readAllBytes();
    }
  }
}
