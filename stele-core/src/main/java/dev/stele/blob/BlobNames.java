package dev.stele.blob;

import java.util.regex.Pattern;

/**
 * Validation of blob names, shared by every store so that they all accept the same names.
 *
 * <p>A name is one or more segments of {@code [A-Za-z0-9._-]} separated by {@code /}; no segment is
 * empty, {@code .} or {@code ..}, and the first segment does not start with {@code .}: names
 * starting with a dot are reserved for a store's own bookkeeping (the filesystem store keeps its
 * temporary files and retention records under {@code .tmp/} and {@code .retention/}).
 */
public final class BlobNames {
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

  private BlobNames() {}

  /**
   * Returns {@code name} if it is a valid blob name.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String check(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("empty blob name");
    }
    if (name.startsWith(".")) {
      throw new IllegalArgumentException("blob names starting with '.' are reserved: " + name);
    }
    for (String segment : name.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("invalid blob name: " + name);
      }
    }
    return name;
  }

  /** A prefix is a name, a name followed by {@code /}, or empty. */
  public static String checkPrefix(String prefix) {
    if (prefix.isEmpty()) {
      return prefix;
    }
    check(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    return prefix;
  }
}
