package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.chunk.ChunkerParams;
import dev.stele.crypto.KdfParams;
import dev.stele.repo.BlobKind;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Small, fast repositories for whole-system tests: a cheap KDF (1 MiB, one pass) and, by default,
 * small chunks (4/16/64 KiB) and small packs (256 KiB), so that a few MiB of data make many chunks
 * and many packs.
 */
final class TestRepositories {
  public static final String PASSWORD = "correct horse battery staple";
  public static final ChunkerParams SMALL_CHUNKS = new ChunkerParams(4 << 10, 16 << 10, 64 << 10);
  public static final int SMALL_PACKS = 256 << 10;
  public static final String HOST = "test-host";

  private TestRepositories() {}

  /** A cheap KDF with a fixed salt; never use outside tests. */
  public static KdfParams cheapKdf() {
    return KdfParams.argon2id(1024, 1, "stele-test-salt!".getBytes(StandardCharsets.UTF_8));
  }

  /** Defaults with the cheap KDF, small chunks and small packs. */
  public static RepositoryInit small(Clock clock) {
    return RepositoryInit.defaults(clock)
        .withKdf(cheapKdf())
        .withChunker(SMALL_CHUNKS)
        .withPackSize(SMALL_PACKS);
  }

  public static Repository init(BlobStore store, RepositoryInit options) throws IOException {
    return Repository.init(store, PASSWORD.toCharArray(), options);
  }

  public static Repository open(BlobStore store, Clock clock) throws IOException {
    return Repository.open(store, PASSWORD.toCharArray(), clock);
  }

  /** FileBackup options for tests: two threads, so the pipeline really runs concurrently. */
  public static FileBackupOptions options() {
    return FileBackupOptions.defaults(HOST).withThreads(2);
  }

  public static FileBackup.Result backup(Repository repo, Path source) throws IOException {
    return backup(repo, options(), source);
  }

  public static FileBackup.Result backup(Repository repo, FileBackupOptions options, Path source)
      throws IOException {
    return new FileBackup(repo, options, FileBackupListener.NONE).run(List.of(source));
  }

  /** Restores everything under {@code source} (an absolute path in the snapshot) into target. */
  public static FileRestore.Result restore(
      Repository repo, SnapshotManifest snapshot, Path source, Path target) throws IOException {
    return new FileRestore(repo, 2, FileRestoreListener.NONE)
        .run(snapshot, source.toAbsolutePath().normalize().toString(), target);
  }

  /**
   * Restores {@code source} of {@code snapshot} into a new directory under {@code scratch} and
   * asserts that it comes back exactly, without a warning.
   */
  public static void assertRestoresExactly(
      Repository repo, SnapshotManifest snapshot, Path source, Path scratch, String context)
      throws IOException {
    Path target = Files.createTempDirectory(scratch, "restore");
    assertThat(restore(repo, snapshot, source, target).warnings()).as(context).isEmpty();
    TreeAssert.assertSameTree(source, target);
  }

  /** Copies every blob with its retention into {@code to}, as it is now in {@code from}. */
  public static void copy(BlobStore from, BlobStore to) throws IOException {
    for (BlobInfo info : from.list("")) {
      to.create(info.name(), from.read(info.name()), from.retention(info.name()));
    }
  }

  /** Marks {@code pack} as a maintenance run would: one record of kind full naming it. */
  public static void mark(Repository repo, String pack) throws IOException {
    repo.writeBlob(
        BlobKind.MAINTENANCE,
        new MaintenanceRecord(
                MaintenanceRecord.VERSION,
                repo.clock().instant(),
                MaintenanceRecord.FULL,
                List.of(pack),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of())
            .toJson());
  }
}
