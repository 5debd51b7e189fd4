package dev.stele.cli;

import dev.stele.blob.BlobInfo;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Index;
import dev.stele.repo.KeyBlob;
import dev.stele.repo.Pack;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.s3.S3BlobStore;
import dev.stele.snapshot.SnapshotCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele repo status}: the format, and how much the repository holds. */
@Command(name = "status", description = "Show a repository's format and contents.")
final class RepoStatusCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try (Repository repo = repository.open(env(), asOf)) {
      RepositoryFormat f = repo.format();
      Index index = repo.loadIndex();
      List<BlobInfo> packs = repo.store().list(Pack.PREFIX);
      long packBytes = packs.stream().mapToLong(BlobInfo::size).sum();
      Set<String> forgotten = repo.tombstoned();
      long keys =
          repo.store().list(KeyBlob.PREFIX).stream()
              .filter(k -> !forgotten.contains(k.name()))
              .count();
      int snapshots = new SnapshotCatalog(repo).list().size();
      Map<String, Object> status = new LinkedHashMap<>();
      status.put("location", repo.store().describe());
      if (repo.store() instanceof S3BlobStore s3) {
        status.put("bucket", s3.bucketConfig());
      }
      status.put("format", f);
      status.put("currentKey", repo.keyName());
      status.put("keys", keys);
      status.put("snapshots", snapshots);
      status.put("forgottenSnapshots", repo.list(BlobKind.SNAPSHOT).size() - snapshots);
      status.put("packs", packs.size());
      status.put("packBytes", packBytes);
      status.put("chunks", index.chunkCount());
      status.put("indexBlobs", index.blobs().size());
      status.put("packsMarkedForDeletion", index.markedPacks().size());
      status.put("maintenanceRuns", repo.list(BlobKind.MAINTENANCE).size());
      status.put("warnings", repo.warnings());
      if (json) {
        out().println(Format.json(status));
        return ExitCode.OK;
      }
      out().printf("repository  %s at %s%n", f.id(), repo.store().describe());
      if (repo.store() instanceof S3BlobStore s3) {
        out().printf("bucket      %s%n", s3.bucketConfig().summary());
      }
      out().printf("format      version %d, created %s%n", f.version(), Format.time(f.created()));
      out()
          .printf(
              "chunking    %s, %s / %s / %s%n",
              f.chunker().algorithm(),
              Format.bytes(f.chunker().minSize()),
              Format.bytes(f.chunker().avgSize()),
              Format.bytes(f.chunker().maxSize()));
      out()
          .printf(
              "packs       %d (%s), target size %s, zstd level %d%n",
              packs.size(),
              Format.bytes(packBytes),
              Format.bytes(f.packSize()),
              f.compressionLevel());
      out().printf("chunks      %d in %d index blobs%n", index.chunkCount(), index.blobs().size());
      out().printf("snapshots   %d (%s forgotten)%n", snapshots, status.get("forgottenSnapshots"));
      out().printf("keys        %d%n", keys);
      out()
          .printf(
              "retention   %s%s%n",
              f.retentionMode(),
              f.minimumRetention().isZero() ? "" : ", at least " + f.minimumRetention());
      out()
          .printf(
              "maintenance mark window %s, sweep window %s, %d runs, %d packs marked%n",
              f.markWindow(),
              f.sweepWindow(),
              repo.list(BlobKind.MAINTENANCE).size(),
              index.markedPacks().size());
      return ExitCode.OK;
    }
  }
}
