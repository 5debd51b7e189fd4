package dev.stele.server;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One byte range of a {@code Range: bytes=…} header (RFC 9110 §14): {@code a-b}, {@code a-} or the
 * last {@code n} bytes, {@code -n}; the end is cut to the file's. Several ranges, or a header that
 * does not parse, are ignored (the whole file is sent), as the RFC allows.
 *
 * @param start first byte sent
 * @param end last byte sent, inclusive
 */
record Range(long start, long end) {
  private static final Pattern ONE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  /**
   * The range {@code header} asks for in a file of {@code size} bytes, or null for the whole file.
   *
   * @throws Refusal 416 if the range starts past the end
   */
  static @Nullable Range parse(String header, long size) throws Refusal {
    Matcher m = ONE.matcher(header.trim());
    if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
      return null;
    }
    try {
      long start;
      long end;
      if (m.group(1).isEmpty()) {
        long suffix = Long.parseLong(m.group(2));
        start = Math.max(0, size - suffix);
        end = suffix == 0 ? -1 : size - 1;
      } else {
        start = Long.parseLong(m.group(1));
        end = m.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(m.group(2)));
        if (end < start && start < size) {
          return null; // a-b with b < a: not a valid range, so ignored
        }
      }
      if (start >= size || end < start) {
        throw new Refusal(
            416,
            "range past the end of the file (" + size + " bytes)",
            Map.of("Content-Range", "bytes */" + size));
      }
      return new Range(start, end);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
