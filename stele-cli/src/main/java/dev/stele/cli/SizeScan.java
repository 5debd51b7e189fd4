package dev.stele.cli;

import dev.stele.snapshot.Excludes;
import dev.stele.snapshot.FileName;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Estimates how many bytes a backup will read, so its progress line can show an ETA. It walks the
 * sources on its own thread while the backup runs (metadata only, usually cached after the first
 * pass) and publishes the total when it is done; until then the line shows no ETA. Excludes are
 * applied the way the backup applies them; files changing meanwhile only skew the estimate.
 *
 * <p>Concurrency: owns one daemon thread, {@code stele-size-scan}, stopped by {@link #close}.
 */
final class SizeScan implements AutoCloseable {
  private final Thread thread;
  private volatile boolean stopped;

  private SizeScan(List<Path> sources, List<String> globs, AtomicLong total) {
    Excludes excludes = new Excludes(globs);
    thread =
        new Thread(
            () -> {
              long sum = 0;
              for (Path source : sources) {
                sum += walk(source.toAbsolutePath().normalize(), excludes);
              }
              if (!stopped) {
                total.set(sum);
              }
            },
            "stele-size-scan");
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts a scan if progress is shown; otherwise does nothing. */
  static SizeScan start(
      CliEnvironment env, List<Path> sources, List<String> excludes, AtomicLong total) {
    return env.interactive() ? new SizeScan(sources, excludes, total) : null;
  }

  private long walk(Path start, Excludes excludes) {
    AtomicLong sum = new AtomicLong();
    try {
      Files.walkFileTree(
          start,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return stopped
                  ? FileVisitResult.TERMINATE
                  : excluded(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile() && !excluded(file)) {
                sum.addAndGet(attrs.size());
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }

            private boolean excluded(Path p) {
              return excludes.matches(p, p.getFileName() == null ? "" : FileName.of(p));
            }
          });
    } catch (IOException e) {
      // an estimate only
    }
    return sum.get();
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
