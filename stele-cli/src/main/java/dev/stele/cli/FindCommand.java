package dev.stele.cli;

import dev.stele.snapshot.FileHistory;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotFind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele find}: entries by name or path pattern across snapshots, or with {@code --history}
 * one path's versions. Both read through a {@link SnapshotSource}, so they work on a repository and
 * through a repository server alike.
 */
@Command(
    name = "find",
    description = {
      "Find files and directories by name or path pattern across snapshots.",
      "A pattern without / matches names (*.log); with /, paths (**/etc/*.conf,"
          + " /home/*/notes.txt). * and ? stay within a name, ** crosses directories.",
      "With --history PATH: that path's versions instead, newest first."
    })
final class FindCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(paramLabel = "PATTERN", arity = "0..*", description = "What to find.")
  List<String> patterns = new ArrayList<>();

  @Option(
      names = {"-i", "--ignore-case"},
      description = "Match regardless of case.")
  boolean ignoreCase;

  @Option(
      names = {"-s", "--snapshot"},
      paramLabel = "SNAPSHOT",
      description = "Search only this snapshot (id, prefix or 'latest'); repeatable.")
  List<String> snapshots = new ArrayList<>();

  @Option(names = "--host", description = "Search only snapshots of this host; repeatable.")
  List<String> hosts = new ArrayList<>();

  @Option(
      names = "--path",
      description = "Search only snapshots with this source path; repeatable.")
  List<String> paths = new ArrayList<>();

  @Option(names = "--newest-first", description = "Search the newest snapshots first.")
  boolean newestFirst;

  @Option(names = "--limit", description = "Stop after this many matches (default: no limit).")
  int limit;

  @Option(
      names = "--history",
      paramLabel = "PATH",
      description = "Show this path's versions across the snapshots instead.")
  String history;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  /** One snapshot's matches as {@code --json} shows them. */
  record Found(String snapshot, Instant time, String host, List<LsCommand.Json> matches) {}

  /** One version as {@code --history --json} shows it. */
  record Version(LsCommand.Json entry, List<String> snapshots) {}

  @Override
  public Integer call() throws Exception {
    if (history == null && patterns.isEmpty()) {
      throw CliException.usage("give a PATTERN to find, or --history PATH");
    }
    if (history != null && !patterns.isEmpty()) {
      throw CliException.usage("--history takes a path, not patterns");
    }
    try (SnapshotSource source = repository.source(env(), asOf)) {
      Set<String> ids = new LinkedHashSet<>();
      for (String spec : snapshots) {
        ids.add(source.resolve(spec).id().hex());
      }
      SnapshotFind.Selection selection =
          new SnapshotFind.Selection(
              ids, Set.copyOf(hosts), Set.copyOf(paths), newestFirst, Math.max(limit, 0));
      List<SnapshotCatalog.Entry> chosen = selection.apply(source.scan().live());
      if (history != null) {
        history(FileHistory.of(source.browser(), chosen, history));
        return ExitCode.OK;
      }
      List<Found> found = new ArrayList<>();
      new SnapshotFind(source.browser(), patterns, ignoreCase)
          .search(
              chosen,
              selection,
              f -> {
                if (json) {
                  found.add(json(f));
                  return;
                }
                out()
                    .printf(
                        "Found matching entries in snapshot %s from %s%n",
                        f.snapshot().id().shortHex(), Format.time(f.snapshot().manifest().time()));
                f.matches().forEach(e -> out().println(LsCommand.longLine(e)));
                out().println();
              });
      if (json) {
        out().println(Format.json(found));
      }
      return ExitCode.OK;
    }
  }

  private static Found json(SnapshotFind.Found f) {
    return new Found(
        f.snapshot().id().hex(),
        f.snapshot().manifest().time(),
        f.snapshot().manifest().host(),
        f.matches().stream().map(LsCommand::json).toList());
  }

  private void history(List<FileHistory.Version> versions) {
    if (json) {
      out()
          .println(
              Format.json(
                  versions.stream()
                      .map(
                          v ->
                              new Version(
                                  LsCommand.json(new SnapshotBrowser.Entry(v.path(), v.node())),
                                  v.snapshots().stream().map(s -> s.id().hex()).toList()))
                      .toList()));
      return;
    }
    for (FileHistory.Version v : versions) {
      out().println(LsCommand.longLine(new SnapshotBrowser.Entry(v.path(), v.node())));
      out()
          .println(
              "  in "
                  + String.join(
                      ", ",
                      v.snapshots().stream()
                          .map(
                              s ->
                                  s.id().shortHex() + " (" + Format.time(s.manifest().time()) + ")")
                          .toList()));
    }
    out().printf("%s: %d versions%n", history, versions.size());
  }
}
