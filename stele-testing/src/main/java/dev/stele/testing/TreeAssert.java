package dev.stele.testing;

import dev.stele.snapshot.FileName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Compares two directory trees the way a restore must reproduce a backup: the same entries, each of
 * the same type, with the same content, size, permission bits (set-uid, set-gid and sticky
 * included), mtime, owner (optionally), symbolic link target and device number; the same hard-link
 * groups (files sharing an inode inside one tree); empty directories included. Names and link
 * targets are compared as their exact bytes ({@link FileName}). The roots themselves are not
 * compared, only what is under them. A symbolic link's own mode is not compared (Linux has none to
 * set); its mtime is, as everyone else's.
 *
 * <p>All differences are collected and reported in one {@link AssertionError}.
 */
public final class TreeAssert {
  private boolean mtimes = true;
  private boolean owners = false;
  private long mtimeResolutionNanos = 1;

  private TreeAssert() {}

  /** Compares mtimes to the nanosecond, permission bits, content, links; not owners. */
  public static TreeAssert exact() {
    return new TreeAssert();
  }

  /** Shorthand for {@code exact().assertSame(expected, actual)}. */
  public static void assertSameTree(Path expected, Path actual) {
    exact().assertSame(expected, actual);
  }

  public TreeAssert withOwners(boolean compare) {
    this.owners = compare;
    return this;
  }

  public TreeAssert withMtimes(boolean compare) {
    this.mtimes = compare;
    return this;
  }

  /** Compares mtimes truncated to this many nanoseconds (1000 for microseconds). */
  public TreeAssert withMtimeResolutionNanos(long nanos) {
    this.mtimeResolutionNanos = nanos;
    return this;
  }

  /** One entry, as much of it as is compared. */
  private record Entry(
      Path path,
      String type,
      int mode,
      int uid,
      int gid,
      long size,
      long mtimeNanos,
      String target,
      Object inode,
      int nlink,
      long rdev) {}

  /** Throws an {@link AssertionError} listing every difference between the two trees. */
  public void assertSame(Path expected, Path actual) {
    List<String> problems = differences(expected, actual);
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "trees differ: expected "
              + expected
              + ", actual "
              + actual
              + " ("
              + problems.size()
              + " differences)\n  "
              + problems.stream().limit(50).collect(Collectors.joining("\n  ")));
    }
  }

  /** Every difference, one line each; empty if the trees are the same. */
  public List<String> differences(Path expected, Path actual) {
    Map<String, Entry> left = scan(expected);
    Map<String, Entry> right = scan(actual);
    List<String> problems = new ArrayList<>();
    for (String path : left.keySet()) {
      if (!right.containsKey(path)) {
        problems.add(quote(path) + ": missing");
      }
    }
    for (String path : right.keySet()) {
      if (!left.containsKey(path)) {
        problems.add(quote(path) + ": unexpected");
      }
    }
    Map<String, SortedSet<String>> leftGroups = linkGroups(left);
    Map<String, SortedSet<String>> rightGroups = linkGroups(right);
    for (var e : left.entrySet()) {
      String path = e.getKey();
      Entry a = e.getValue();
      Entry b = right.get(path);
      if (b == null) {
        continue;
      }
      String p = quote(path);
      if (!a.type().equals(b.type())) {
        problems.add(p + ": type " + a.type() + " became " + b.type());
        continue;
      }
      switch (a.type()) {
        case "char-device", "block-device" -> {
          if (a.rdev() != b.rdev()) {
            problems.add(p + ": device " + a.rdev() + " became " + b.rdev());
          }
        }
        case "symlink" -> {
          if (!Objects.equals(a.target(), b.target())) {
            problems.add(
                p
                    + ": link target "
                    + FileName.display(a.target())
                    + " became "
                    + FileName.display(b.target()));
          }
        }
        case "file" -> {
          if (a.size() != b.size()) {
            problems.add(p + ": size " + a.size() + " became " + b.size());
          } else if (!sameContent(a.path(), b.path())) {
            problems.add(p + ": content differs");
          }
          if (!leftGroups.get(path).equals(rightGroups.get(path))) {
            problems.add(
                p + ": hard links " + leftGroups.get(path) + " became " + rightGroups.get(path));
          }
        }
        default -> {}
      }
      if (!a.type().equals("symlink") && a.mode() != b.mode()) {
        problems.add(
            p + ": mode " + Integer.toOctalString(a.mode()) + " became " + octal(b.mode()));
      }
      if (mtimes
          && a.mtimeNanos() / mtimeResolutionNanos != b.mtimeNanos() / mtimeResolutionNanos) {
        problems.add(
            p
                + ": mtime "
                + FileTime.from(a.mtimeNanos(), TimeUnit.NANOSECONDS)
                + " became "
                + FileTime.from(b.mtimeNanos(), TimeUnit.NANOSECONDS));
      }
      if (owners && (a.uid() != b.uid() || a.gid() != b.gid())) {
        problems.add(
            p + ": owner " + a.uid() + ":" + a.gid() + " became " + b.uid() + ":" + b.gid());
      }
    }
    return problems;
  }

  private static String octal(int mode) {
    return Integer.toOctalString(mode);
  }

  private static String quote(String path) {
    return "'" + FileName.display(path) + "'";
  }

  /** For each file, the sorted relative paths of every file in the same tree sharing its inode. */
  private static Map<String, SortedSet<String>> linkGroups(Map<String, Entry> entries) {
    Map<Object, SortedSet<String>> byInode = new HashMap<>();
    Map<String, SortedSet<String>> groups = new HashMap<>();
    for (var e : entries.entrySet()) {
      if (e.getValue().type().equals("file")) {
        SortedSet<String> group =
            byInode.computeIfAbsent(e.getValue().inode(), k -> new TreeSet<>());
        group.add(e.getKey());
        groups.put(e.getKey(), group);
      }
    }
    return groups;
  }

  private static boolean sameContent(Path a, Path b) {
    try {
      return Files.mismatch(a, b) == -1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Entry> scan(Path root) {
    Map<String, Entry> entries = new TreeMap<>();
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                throws IOException {
              if (!dir.equals(root)) {
                entries.put(FileName.ofPath(root.relativize(dir)), entry(dir));
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              entries.put(FileName.ofPath(root.relativize(file)), entry(file));
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }

  private static Entry entry(Path path) throws IOException {
    Map<String, Object> a =
        Files.readAttributes(
            path,
            "unix:mode,uid,gid,size,lastModifiedTime,ino,nlink,rdev",
            LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    String type =
        switch (mode & 0170000) {
          case 0100000 -> "file";
          case 0040000 -> "directory";
          case 0120000 -> "symlink";
          case 0010000 -> "fifo";
          case 0140000 -> "socket";
          case 0020000 -> "char-device";
          case 0060000 -> "block-device";
          default -> "unknown(" + Integer.toOctalString(mode & 0170000) + ")";
        };
    return new Entry(
        path,
        type,
        mode & 07777,
        (Integer) a.get("uid"),
        (Integer) a.get("gid"),
        type.equals("file") ? (Long) a.get("size") : 0,
        ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
        type.equals("symlink") ? FileName.ofPath(Files.readSymbolicLink(path)) : null,
        a.get("ino"),
        (Integer) a.get("nlink"),
        (Long) a.get("rdev"));
  }
}
