package dev.stele.cli;

import dev.stele.snapshot.FileName;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotDiff;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code stele snapshot diff}: what changed from one snapshot to another, in a repository or
 * through a repository server alike.
 */
@Command(
    name = "diff",
    description = "Show what changed between two snapshots: + added, - removed, M modified.")
final class SnapshotDiffCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(index = "0", paramLabel = "SNAPSHOT1", description = "The older snapshot.")
  String first;

  @Parameters(index = "1", paramLabel = "SNAPSHOT2", description = "The newer snapshot.")
  String second;

  @Override
  public Integer call() throws Exception {
    try (SnapshotSource source = repository.source(env(), asOf)) {
      SnapshotCatalog.Entry a = source.resolve(first);
      SnapshotCatalog.Entry b = source.resolve(second);
      List<SnapshotDiff.Change> changes =
          SnapshotDiff.diff(source.browser(), a.manifest(), b.manifest());
      for (SnapshotDiff.Change c : changes) {
        out().println(c.kind() + " " + FileName.display(c.path()));
      }
      long added = changes.stream().filter(c -> c.kind() == '+').count();
      long removed = changes.stream().filter(c -> c.kind() == '-').count();
      out()
          .printf(
              "%s → %s: %d added, %d removed, %d modified%n",
              a.id().shortHex(),
              b.id().shortHex(),
              added,
              removed,
              changes.size() - added - removed);
      return ExitCode.OK;
    }
  }
}
