package dev.stele.cli;

import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code stele snapshot list}: live snapshots, oldest first, then one line per manifest that cannot
 * be read (exit 5): the listing goes on, and the damaged snapshot can be forgotten by its id.
 */
@Command(
    name = "list",
    description =
        "List snapshots, oldest first. A snapshot whose manifest cannot be read is listed as"
            + " damaged, and the command exits 5.")
final class SnapshotListCommand extends SteleCommand {
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
    try (SnapshotSource source = repository.source(env(), asOf)) {
      SnapshotCatalog.Scan scan = source.scan();
      List<SnapshotCatalog.Entry> entries =
          scan.live().stream()
              .filter(e -> host == null || host.equals(e.manifest().host()))
              .filter(e -> tags.isEmpty() || e.manifest().tags().stream().anyMatch(tags::contains))
              .toList();
      int exit = scan.unreadable().isEmpty() ? ExitCode.OK : ExitCode.DAMAGED;
      if (json) {
        List<Object> all = new ArrayList<>(entries.stream().map(SnapshotRef.Json::of).toList());
        scan.unreadable().forEach(u -> all.add(SnapshotRef.Damaged.of(u)));
        out().println(Format.json(all));
        return exit;
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
      for (SnapshotCatalog.Unreadable u : scan.unreadable()) {
        out()
            .printf(
                "%-8s  DAMAGED: %s (forget it: stele snapshot forget %s)%n",
                u.id().shortHex(), u.problem().getMessage(), u.id().hex());
      }
      out().println(entries.size() + (entries.size() == 1 ? " snapshot" : " snapshots"));
      return exit;
    }
  }
}
