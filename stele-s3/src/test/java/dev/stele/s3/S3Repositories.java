package dev.stele.s3;

import dev.stele.blob.BlobStore;
import dev.stele.chunk.ChunkerParams;
import dev.stele.crypto.KdfParams;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * Small, fast repositories on S3 for whole-system tests (the few helpers of stele-testing's engine
 * {@code TestRepositories} that these tests need): a cheap KDF, small chunks and small packs, so a
 * few hundred KiB make many blobs without many requests per byte.
 */
final class S3Repositories {
  static final String PASSWORD = "correct horse battery staple";
  static final String HOST = "test-host";

  private S3Repositories() {}

  /** A cheap KDF with a fixed salt; never use outside tests. */
  static KdfParams cheapKdf() {
    return KdfParams.argon2id(1024, 1, "stele-test-salt!".getBytes(StandardCharsets.UTF_8));
  }

  static RepositoryInit small(Clock clock) {
    return RepositoryInit.defaults(clock)
        .withKdf(cheapKdf())
        .withChunker(new ChunkerParams(4 << 10, 16 << 10, 64 << 10))
        .withPackSize(128 << 10);
  }

  static Repository init(BlobStore store, RepositoryInit options) throws IOException {
    return Repository.init(store, PASSWORD.toCharArray(), options);
  }

  static Repository open(BlobStore store, Clock clock) throws IOException {
    return Repository.open(store, PASSWORD.toCharArray(), clock);
  }

  static FileBackup.Result backup(Repository repo, Path source) throws IOException {
    return new FileBackup(
            repo, FileBackupOptions.defaults(HOST).withThreads(2), FileBackupListener.NONE)
        .run(List.of(source));
  }

  /** Restores everything under {@code source} (an absolute path in the snapshot) into target. */
  static FileRestore.Result restore(
      Repository repo, SnapshotManifest snapshot, Path source, Path target) throws IOException {
    return new FileRestore(repo, 2, FileRestoreListener.NONE)
        .run(snapshot, source.toAbsolutePath().normalize().toString(), target);
  }

  /** Every version and delete marker under a store's prefix, by key, as the server lists them. */
  record Listing(Map<String, List<ObjectVersion>> versions, List<DeleteMarkerEntry> markers) {}

  static Listing listVersions(RawS3 raw, S3Location location) {
    Map<String, List<ObjectVersion>> versions = new HashMap<>();
    List<DeleteMarkerEntry> markers = new ArrayList<>();
    for (var page :
        raw.s3.listObjectVersionsPaginator(
            b -> b.bucket(location.bucket()).prefix(location.keyPrefix()))) {
      page.versions()
          .forEach(v -> versions.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(v));
      markers.addAll(page.deleteMarkers());
    }
    return new Listing(versions, markers);
  }
}
