package dev.stele.blob;

import java.util.regex.Pattern;

/** Validation of blob names, shared by every store so that they all accept the same names. */
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
