package dev.stele.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Compares two directory trees entry by entry: the same names, types, sizes, contents, permission
 * bits, modification times of files and of symbolic links themselves (not their targets'), symbolic
 * link targets, and hard links kept as hard links.
 */
final class TreeComparison {
  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  private TreeComparison() {}

  /** The differences between {@code expected} and {@code actual}; empty if they match. */
  static List<String> compare(Path expected, Path actual) throws IOException {
    List<String> differences = new ArrayList<>();
    SortedSet<Path> names = relativeEntries(expected);
    SortedSet<Path> actualNames = relativeEntries(actual);
    for (Path extra : actualNames) {
      if (!names.contains(extra)) {
        differences.add(extra + ": not in the source");
      }
    }
    Map<Object, Path> expectedLinks = new HashMap<>();
    Map<Object, Path> actualLinks = new HashMap<>();
    for (Path rel : names) {
      Path a = expected.resolve(rel.toString());
      Path b = actual.resolve(rel.toString());
      if (!actualNames.contains(rel)) {
        differences.add(rel + ": missing");
        continue;
      }
      PosixFileAttributes x = Files.readAttributes(a, PosixFileAttributes.class, NOFOLLOW);
      PosixFileAttributes y = Files.readAttributes(b, PosixFileAttributes.class, NOFOLLOW);
      if (x.isRegularFile() != y.isRegularFile()
          || x.isDirectory() != y.isDirectory()
          || x.isSymbolicLink() != y.isSymbolicLink()) {
        differences.add(rel + ": different type");
        continue;
      }
      if (x.isSymbolicLink()) {
        if (!Files.readSymbolicLink(a).equals(Files.readSymbolicLink(b))) {
          differences.add(rel + ": different link target");
        }
        if (!x.lastModifiedTime().equals(y.lastModifiedTime())) {
          differences.add(rel + ": modification time of the link changed");
        }
        continue;
      }
      if (!x.permissions().equals(y.permissions())) {
        differences.add(rel + ": permissions " + x.permissions() + " became " + y.permissions());
      }
      if (x.isRegularFile()) {
        if (x.size() != y.size()) {
          differences.add(rel + ": size " + x.size() + " became " + y.size());
        } else if (Files.mismatch(a, b) >= 0) {
          differences.add(rel + ": different content");
        }
        if (!x.lastModifiedTime().equals(y.lastModifiedTime())) {
          differences.add(rel + ": modification time changed");
        }
        Path firstA = expectedLinks.putIfAbsent(x.fileKey(), rel);
        Path firstB = actualLinks.putIfAbsent(y.fileKey(), rel);
        if (!Objects.equals(firstA, firstB)) {
          differences.add(rel + ": hard link not kept (should be the same file as " + firstA + ")");
        }
      }
    }
    return differences;
  }

  private static SortedSet<Path> relativeEntries(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> !p.equals(root))
          .map(root::relativize)
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }
}
