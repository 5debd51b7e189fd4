package dev.stele.cli;

import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.OutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code stele cat}: one file's content from a snapshot, to standard output. */
@Command(name = "cat", description = "Write a file from a snapshot to standard output.")
final class CatCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(paramLabel = "SNAPSHOT:PATH", description = "Snapshot and absolute path of a file.")
  String ref;

  @Override
  public Integer call() throws Exception {
    SnapshotRef r = SnapshotRef.parse(ref, true);
    try (SnapshotSource source = repository.source(env(), asOf)) {
      SnapshotCatalog.Entry snapshot = source.resolve(r.snapshot());
      SnapshotBrowser browser = source.browser();
      Node node = browser.find(snapshot.manifest(), r.path());
      if (!node.isFile()) {
        throw new CliException(
            ExitCode.ERROR,
            r.path()
                + " is a "
                + node.kind().name().toLowerCase(java.util.Locale.ROOT)
                + ", not a file");
      }
      out().flush();
      OutputStream stdout = env().stdout();
      browser.cat(node, stdout);
      stdout.flush();
      return ExitCode.OK;
    }
  }
}
