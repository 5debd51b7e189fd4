package dev.stele.snapshot;

import java.util.regex.Pattern;

/**
 * A file name pattern as {@code stele find} takes it: {@code *} any run of characters but {@code
 * /}, {@code ?} one of them, {@code [abc]} / {@code [a-z]} / {@code [!a-z]} one from a set, {@code
 * **} any run including {@code /}, {@code \} quotes the next character. A pattern without {@code /}
 * is matched against an entry's name; one with {@code /}, against its whole path, anchored at the
 * root if it starts with {@code /}, else at any directory ({@code etc/*.conf} matches {@code
 * /etc/a.conf} and {@code /srv/etc/b.conf}). Names and paths are matched in the form {@link
 * FileName#display} shows them.
 */
final class Glob {
  private final Pattern regex;
  private final boolean wholePath;

  private Glob(Pattern regex, boolean wholePath) {
    this.regex = regex;
    this.wholePath = wholePath;
  }

  static Glob compile(String glob, boolean ignoreCase) {
    if (glob.isEmpty()) {
      throw new IllegalArgumentException("an empty pattern matches nothing");
    }
    boolean wholePath = glob.indexOf('/') >= 0;
    StringBuilder re = new StringBuilder();
    if (wholePath && glob.charAt(0) != '/') {
      re.append("(?:.*/)?");
    } else if (wholePath) {
      glob = glob.substring(1);
      re.append('/');
    }
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            i++;
            if (i + 1 < glob.length() && glob.charAt(i + 1) == '/') {
              i++;
              re.append("(?:.*/)?"); // "**/" is also no directory at all
            } else {
              re.append(".*");
            }
          } else {
            re.append("[^/]*");
          }
        }
        case '?' -> re.append("[^/]");
        case '[' -> {
          int end = glob.indexOf(']', i + 2);
          if (end < 0) {
            re.append("\\[");
            break;
          }
          String set = glob.substring(i + 1, end);
          re.append('[');
          if (set.startsWith("!")) {
            re.append('^');
            set = set.substring(1);
          }
          re.append(set.replace("\\", "\\\\").replace("[", "\\[")).append(']');
          i = end;
        }
        case '\\' -> {
          if (i + 1 < glob.length()) {
            re.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
          } else {
            re.append("\\\\");
          }
        }
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    int flags = ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
    return new Glob(Pattern.compile(re.toString(), flags | Pattern.DOTALL), wholePath);
  }

  /** True if the entry at {@code path}, named {@code name} (both as shown), matches. */
  boolean matches(String path, String name) {
    return regex.matcher(wholePath ? path : name).matches();
  }
}
