package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stele ls}: what a snapshot holds at a path, reading only the trees on the way. */
@Command(name = "ls", description = "List files in a snapshot.")
final class LsCommand extends StelCommand {
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

  @Override
  public Integer call() throws Exception {
    SnapshotRef r = SnapshotRef.parse(ref, false);
    try (Repository repo = repository.open(env(), asOf)) {
      SnapshotCatalog.Entry snapshot = new SnapshotCatalog(repo).resolve(r.snapshot());
      SnapshotBrowser browser = new SnapshotBrowser(repo);
      Node start = browser.find(snapshot.manifest(), r.path());
      String startPath = "/" + String.join("/", segments(r.path()));
      List<SnapshotBrowser.Entry> entries = browser.list(start, startPath, recursive);
      boolean skipSelf = start.isDirectory() && !start.name().isEmpty();
      for (SnapshotBrowser.Entry e : skipSelf ? entries.subList(1, entries.size()) : entries) {
        out().println(long_ ? longLine(e) : e.path());
      }
      return ExitCode.OK;
    }
  }

  private static List<String> segments(String path) {
    return java.util.Arrays.stream(path.split("/"))
        .filter(s -> !s.isEmpty() && !s.equals("."))
        .toList();
  }

  private static String longLine(SnapshotBrowser.Entry e) {
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
            "%c%s %5d %5d %10d %s %s",
            type,
            permissions(n.mode()),
            n.uid(),
            n.gid(),
            n.size(),
            Format.time(Instant.ofEpochSecond(0, n.mtimeNanos())),
            e.path());
    return n.target() == null ? line : line + " -> " + n.target();
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
