package dev.stele.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a launched JVM's standard error says of its start, with {@code -XshowSettings:properties
 * -Xlog:cds=info:stderr} among its options: which class-data archive it mapped, and whether its
 * class path held {@code lib/remote/}.
 */
final class StartLog {
  /** The options that make a JVM say so, for {@code STELE_JAVA_OPTS}. */
  static final String OPTIONS = "-XshowSettings:properties -Xlog:cds=info:stderr";

  private static final Pattern OPENED = Pattern.compile("Opened archive \\S*/([^/\\s]+\\.jsa)\\.");

  private StartLog() {}

  /** The file name of the archive the JVM mapped, or "none" (an archive it could not map). */
  static String archive(String err) {
    Matcher opened = OPENED.matcher(err);
    return opened.find() && !err.contains("Unable to map") ? opened.group(1) : "none";
  }

  static boolean onShortPath(String err) {
    return !err.contains("/lib/remote/");
  }
}
