package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele snapshot list}: live snapshots, oldest first. */
@Command(name = "list", description = "List snapshots, oldest first.")
final class SnapshotListCommand extends StelCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Option(names = "--host", paramLabel = "HOST", description = "Only snapshots from HOST.")
  String host;

  @Option(
      names = "--tag",
      paramLabel = "TAG",
      description = "Only snapshots with TAG (repeat: any of them).")
  List<String> tags = List.of();

  @Option(names = "--json", description = "Print a JSON array.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (Repository repo = repository.open(env(), asOf)) {
      List<SnapshotCatalog.Entry> entries =
          new SnapshotCatalog(repo)
              .list().stream()
                  .filter(e -> host == null || host.equals(e.manifest().host()))
                  .filter(
                      e -> tags.isEmpty() || e.manifest().tags().stream().anyMatch(tags::contains))
                  .toList();
      if (json) {
        out().println(Format.json(entries.stream().map(SnapshotRef.Json::of).toList()));
        return ExitCode.OK;
      }
      out()
          .printf(
              "%-8s  %-19s  %-16s  %9s  %-12s  %s%n",
              "ID", "TIME", "HOST", "SIZE", "TAGS", "PATHS");
      for (SnapshotCatalog.Entry e : entries) {
        SnapshotManifest m = e.manifest();
        out()
            .printf(
                "%-8s  %-19s  %-16s  %9s  %-12s  %s%n",
                e.id().shortHex(),
                Format.time(m.time()),
                m.host(),
                m.stats() == null ? "-" : Format.bytes(m.stats().bytes()),
                String.join(",", m.tags()),
                String.join(" ", Format.paths(m.paths())));
      }
      out().println(entries.size() + (entries.size() == 1 ? " snapshot" : " snapshots"));
      return ExitCode.OK;
    }
  }
}
