package dev.stele.snapshot;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The exclude globs of a backup. A glob without {@code /} matches an entry's name anywhere, one
 * with {@code /} its absolute path; the JDK's glob syntax ({@code *}, {@code **}, {@code ?}, {@code
 * [..]}, {@code {a,b}}).
 *
 * <p>Names are bytes, globs are text: a glob matches the name <em>as {@code ls} shows it</em>
 * ({@link FileName#display}), and a name is written in a glob as {@code ls} shows it: {@code \xHH}
 * and {@code \\} stand for themselves, so {@code bad\xff} matches the name shown {@code bad\xff}
 * and {@code a\\b} the name {@code a\b}. Any other backslash escapes the next character as in every
 * glob ({@code \*} is a literal star).
 */
public final class Excludes {
  private final List<PathMatcher> names = new ArrayList<>();
  private final List<PathMatcher> paths = new ArrayList<>();

  public Excludes(List<String> globs) {
    for (String glob : globs) {
      PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + shownForm(glob));
      (glob.contains("/") ? paths : names).add(matcher);
    }
  }

  /**
   * True if the entry at {@code path} (absolute), whose exact name is {@code name}, is excluded.
   */
  public boolean matches(Path path, String name) {
    if (!names.isEmpty()) {
      Path shown = Path.of(name.isEmpty() ? "/" : FileName.display(name));
      for (PathMatcher m : names) {
        if (m.matches(shown)) {
          return true;
        }
      }
    }
    if (!paths.isEmpty()) {
      Path shown = Path.of(FileName.display(FileName.ofPath(path)));
      for (PathMatcher m : paths) {
        if (m.matches(shown)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The JDK glob that matches the shown text {@code \xHH} and {@code \\} where the glob has it. */
  static String shownForm(String glob) {
    StringBuilder out = new StringBuilder(glob.length() + 8);
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c != '\\' || i + 1 == glob.length()) {
        out.append(c);
      } else if (glob.charAt(i + 1) == '\\') {
        out.append("\\\\\\\\");
        i++;
      } else if (glob.startsWith("x", i + 1) && isHex(glob, i + 2) && isHex(glob, i + 3)) {
        out.append("\\\\x").append(glob.substring(i + 2, i + 4).toLowerCase(Locale.ROOT));
        i += 3;
      } else {
        out.append(c).append(glob.charAt(++i));
      }
    }
    return out.toString();
  }

  private static boolean isHex(String s, int i) {
    return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
  }
}
