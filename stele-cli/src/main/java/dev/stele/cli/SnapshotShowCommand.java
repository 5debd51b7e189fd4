package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stele snapshot show}: one snapshot's manifest. */
@Command(name = "show", description = "Show one snapshot: where it came from and what it holds.")
final class SnapshotShowCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(paramLabel = "SNAPSHOT", description = "Id, unique id prefix, or 'latest'.")
  String snapshot;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (Repository repo = repository.open(env(), asOf)) {
      SnapshotCatalog.Entry e = new SnapshotCatalog(repo).resolve(snapshot);
      if (json) {
        out().println(Format.json(SnapshotRef.Json.of(e)));
        return ExitCode.OK;
      }
      SnapshotManifest m = e.manifest();
      out().printf("snapshot  %s%n", e.id().hex());
      out().printf("time      %s%n", Format.time(m.time()));
      out().printf("host      %s%n", m.host());
      out().printf("user      %s%n", m.user());
      out().printf("paths     %s%n", String.join(" ", Format.paths(m.paths())));
      out().printf("tags      %s%n", String.join(", ", m.tags()));
      out().printf("parent    %s%n", m.parent() == null ? "-" : m.parent());
      out().printf("tree      %s%n", m.tree());
      if (m.expires() != null) {
        out().printf("expires   %s%n", Format.time(m.expires()));
      }
      SnapshotManifest.Stats s = m.stats();
      if (s != null) {
        out()
            .printf(
                "files     %d in %d directories, %s%n",
                s.files(), s.dirs(), Format.bytes(s.bytes()));
        out()
            .printf(
                "added     %d files read, %d new chunks, %s new (%s stored)%n",
                s.filesNew(),
                s.chunksNew(),
                Format.bytes(s.bytesNew()),
                Format.bytes(s.bytesStored()));
        out().printf("skipped   %d%n", s.skipped());
        out().printf("took      %s%n", Format.seconds(s.seconds()));
      }
      m.labels().forEach((k, v) -> out().printf("label     %s=%s%n", k, v));
      return ExitCode.OK;
    }
  }
}
