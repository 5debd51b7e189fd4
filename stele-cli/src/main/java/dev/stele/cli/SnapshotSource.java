package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.Closeable;
import java.io.IOException;

/**
 * Where the reading commands ({@code snapshot list}, {@code ls}, {@code cat}, {@code find}, {@code
 * snapshot diff}, {@code restore}) find snapshots, trees and file contents: a repository opened
 * with its password, or a repository server reached with a user's own credentials ({@link
 * ServerSource}). The commands are the same over both.
 */
interface SnapshotSource extends Closeable {
  /** The snapshots there are to see, oldest first, and those whose manifest cannot be read. */
  SnapshotCatalog.Scan scan() throws IOException;

  /** The snapshot {@code spec} names: {@code latest}, an id or a unique prefix. */
  SnapshotCatalog.Entry resolve(String spec) throws IOException;

  /** Reads the trees and files of those snapshots. */
  SnapshotBrowser browser();

  /** A restore of those snapshots' files, its contents read with {@code threads} threads. */
  FileRestore restore(int threads, FileRestoreListener listener) throws IOException;

  /** A repository opened directly. */
  static SnapshotSource of(Repository repo) {
    return new SnapshotSource() {
      @Override
      public SnapshotCatalog.Scan scan() throws IOException {
        return new SnapshotCatalog(repo).scan();
      }

      @Override
      public SnapshotCatalog.Entry resolve(String spec) throws IOException {
        return new SnapshotCatalog(repo).resolve(spec);
      }

      @Override
      public SnapshotBrowser browser() {
        return new SnapshotBrowser(repo);
      }

      @Override
      public FileRestore restore(int threads, FileRestoreListener listener) throws IOException {
        repo.loadIndex();
        return new FileRestore(repo, threads, listener);
      }

      @Override
      public void close() throws IOException {
        repo.close();
      }
    };
  }
}
