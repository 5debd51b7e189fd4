package dev.stele.cli;

import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stele ls}: what a snapshot holds at a path, reading only the trees on the way. */
@Command(name = "ls", description = "List files in a snapshot.")
final class LsCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(
      paramLabel = "SNAPSHOT[:PATH]",
      description = "Snapshot (id, prefix or 'latest') and an absolute path in it (default /).")
  String ref;

  @Option(names = "-l", description = "Long listing: type, mode, size, time.")
  boolean long_;

  @Option(names = "-r", description = "Recurse into directories.")
  boolean recursive;

  @Option(names = "--json", description = "Print a JSON array of the entries.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SnapshotRef r = SnapshotRef.parse(ref, false);
    try (SnapshotSource source = repository.source(env(), asOf)) {
      SnapshotCatalog.Entry snapshot = source.resolve(r.snapshot());
      SnapshotBrowser browser = source.browser();
      SnapshotBrowser.Entry start = browser.lookup(snapshot.manifest(), r.path());
      List<SnapshotBrowser.Entry> entries = browser.list(start.node(), start.path(), recursive);
      boolean skipSelf = start.node().isDirectory() && !start.node().name().isEmpty();
      if (skipSelf) {
        entries = entries.subList(1, entries.size());
      }
      if (json) {
        out().println(Format.json(entries.stream().map(LsCommand::json).toList()));
        return ExitCode.OK;
      }
      for (SnapshotBrowser.Entry e : entries) {
        out().println(long_ ? longLine(e) : FileName.display(e.path()));
      }
      return ExitCode.OK;
    }
  }

  /**
   * One entry as {@code --json} shows it. Paths and targets are in the shown form ({@link
   * FileName#display}), so {@link FileName#parseDisplay} gives back their exact bytes.
   */
  record Json(
      String path,
      String type,
      String mode,
      int uid,
      int gid,
      long size,
      Instant mtime,
      String target,
      Long rdev) {}

  static Json json(SnapshotBrowser.Entry e) {
    Node n = e.node();
    return new Json(
        FileName.display(e.path()),
        n.kind().name().toLowerCase(Locale.ROOT),
        String.format("%04o", n.mode()),
        n.uid(),
        n.gid(),
        n.size(),
        Instant.ofEpochSecond(0, n.mtimeNanos()),
        n.target() == null ? null : FileName.display(n.target()),
        n.kind().isDevice() ? n.rdev() : null);
  }

  static String longLine(SnapshotBrowser.Entry e) {
    Node n = e.node();
    char type =
        switch (n.kind()) {
          case DIRECTORY -> 'd';
          case SYMLINK -> 'l';
          case FILE -> '-';
          case FIFO -> 'p';
          case SOCKET -> 's';
          case CHAR_DEVICE -> 'c';
          case BLOCK_DEVICE -> 'b';
        };
    String line =
        String.format(
            "%c%s %5d %5d %10s %s %s",
            type,
            permissions(n.mode()),
            n.uid(),
            n.gid(),
            n.kind().isDevice() ? device(n.rdev()) : n.size(),
            Format.time(Instant.ofEpochSecond(0, n.mtimeNanos())),
            FileName.display(e.path()));
    return n.target() == null ? line : line + " -> " + FileName.display(n.target());
  }

  /** A device number as {@code ls -l} shows it: "major, minor" (glibc's encoding). */
  static String device(long rdev) {
    long major = (rdev >>> 8 & 0xfff) | (rdev >>> 32 & ~0xfffL);
    long minor = (rdev & 0xff) | (rdev >>> 12 & 0xffffff00L);
    return major + ", " + minor;
  }

  static String permissions(int mode) {
    String rwx = "rwxrwxrwx";
    StringBuilder s = new StringBuilder(9);
    for (int i = 0; i < 9; i++) {
      s.append((mode & (1 << (8 - i))) != 0 ? rwx.charAt(i) : '-');
    }
    return s.toString();
  }
}
