package dev.stele.s3;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The XML of S3's answers, read into a small tree: elements with their text and children,
 * attributes and namespaces dropped. S3's documents are short and plain, so this is all they need;
 * a JDK parser would load some hundreds of classes for them.
 *
 * <p>Concurrency: immutable once parsed.
 */
record Xml(String name, String text, List<Xml> children) {

  /** Parses {@code document}; throws {@link IllegalArgumentException} if it is not well formed. */
  static Xml parse(String document) {
    Parser parser = new Parser(document);
    parser.skipProlog();
    return parser.element();
  }

  /** The first child called {@code name}, if any. */
  Optional<Xml> child(String name) {
    for (Xml c : children) {
      if (c.name.equals(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The children called {@code name}, in order. */
  List<Xml> all(String name) {
    List<Xml> found = new ArrayList<>();
    for (Xml c : children) {
      if (c.name.equals(name)) {
        found.add(c);
      }
    }
    return found;
  }

  /** The text of the first child called {@code name}, or null. */
  @Nullable String text(String name) {
    return child(name).map(Xml::text).orElse(null);
  }

  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    void skipProlog() {
      while (true) {
        skipSpace();
        if (s.startsWith("<?", i)) {
          skipPast("?>");
        } else if (s.startsWith("<!--", i)) {
          skipPast("-->");
        } else if (s.startsWith("<!", i)) {
          skipPast(">");
        } else {
          return;
        }
      }
    }

    Xml element() {
      expect('<');
      int start = i;
      while (i < s.length() && " \t\r\n/>".indexOf(s.charAt(i)) < 0) {
        i++;
      }
      String qualified = s.substring(start, i);
      String name = qualified.substring(qualified.indexOf(':') + 1);
      int end = s.indexOf('>', i);
      if (end < 0) {
        throw malformed();
      }
      boolean empty = s.charAt(end - 1) == '/';
      i = end + 1;
      List<Xml> children = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      if (!empty) {
        while (true) {
          if (i >= s.length()) {
            throw malformed();
          }
          if (s.startsWith("</", i)) {
            skipPast(">");
            break;
          } else if (s.startsWith("<!--", i)) {
            skipPast("-->");
          } else if (s.startsWith("<![CDATA[", i)) {
            int close = s.indexOf("]]>", i);
            if (close < 0) {
              throw malformed();
            }
            text.append(s, i + 9, close);
            i = close + 3;
          } else if (s.charAt(i) == '<') {
            children.add(element());
          } else {
            int next = s.indexOf('<', i);
            if (next < 0) {
              throw malformed();
            }
            text.append(unescape(s.substring(i, next)));
            i = next;
          }
        }
      }
      return new Xml(name, children.isEmpty() ? text.toString() : "", List.copyOf(children));
    }

    private static String unescape(String raw) {
      if (raw.indexOf('&') < 0) {
        return raw;
      }
      StringBuilder out = new StringBuilder(raw.length());
      for (int k = 0; k < raw.length(); k++) {
        char c = raw.charAt(k);
        int semi = c == '&' ? raw.indexOf(';', k) : -1;
        if (semi < 0) {
          out.append(c);
          continue;
        }
        String entity = raw.substring(k + 1, semi);
        switch (entity) {
          case "amp" -> out.append('&');
          case "lt" -> out.append('<');
          case "gt" -> out.append('>');
          case "quot" -> out.append('"');
          case "apos" -> out.append('\'');
          default -> {
            if (!entity.startsWith("#")) {
              throw new IllegalArgumentException("unknown XML entity &" + entity + ";");
            }
            boolean hex = entity.startsWith("#x") || entity.startsWith("#X");
            out.appendCodePoint(Integer.parseInt(entity.substring(hex ? 2 : 1), hex ? 16 : 10));
          }
        }
        k = semi;
      }
      return out.toString();
    }

    private void expect(char c) {
      if (i >= s.length() || s.charAt(i) != c) {
        throw malformed();
      }
      i++;
    }

    private void skipSpace() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    private void skipPast(String end) {
      int at = s.indexOf(end, i);
      if (at < 0) {
        throw malformed();
      }
      i = at + end.length();
    }

    private IllegalArgumentException malformed() {
      return new IllegalArgumentException("malformed XML at character " + i);
    }
  }
}
