package dev.stele.server;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A request's path as segments, refused (400) when it could step outside what it names: {@code ..}
 * or {@code .} segments, an encoded slash ({@code %2F}), which would make one segment two after
 * decoding, and NUL bytes. Segments are decoded from UTF-8 percent-escapes; a file name that is not
 * UTF-8 is written as {@link dev.stele.snapshot.FileName#display} shows it ({@code \xHH}).
 */
final class RequestPath {
  private RequestPath() {}

  static List<String> segments(URI uri) throws Refusal {
    String raw = uri.getRawPath();
    String lower = raw.toLowerCase(Locale.ROOT);
    if (lower.contains("%2f") || lower.contains("%00")) {
      throw new Refusal(400, "path refused: encoded slash or NUL");
    }
    String path = uri.getPath();
    if (path.indexOf('\0') >= 0) {
      throw new Refusal(400, "path refused: encoded slash or NUL");
    }
    List<String> out = new ArrayList<>();
    for (String s : path.split("/", -1)) {
      if (s.equals("..") || s.equals(".")) {
        throw new Refusal(400, "path refused: '" + s + "' segment");
      }
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  /** The segments from {@code from} on as an absolute path in a snapshot ("/" for none). */
  static String join(List<String> segments, int from) {
    return "/"
        + String.join("/", segments.subList(Math.min(from, segments.size()), segments.size()));
  }
}
