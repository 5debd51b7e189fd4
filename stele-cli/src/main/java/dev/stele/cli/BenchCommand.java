package dev.stele.cli;

import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele bench …}, hidden: measurements {@code bench/run.sh} and {@code bench/scale.sh} need
 * from inside one JVM (bench/README.md), printed as names and numbers for the scripts to read.
 */
@Command(
    name = "bench",
    hidden = true,
    subcommands = {BenchCommand.WarmBackup.class, BenchCommand.Open.class})
final class BenchCommand extends GroupCommand {

  /**
   * Backs up one directory {@code --runs} times in this JVM the way the node agent backs up a pod
   * volume: the repository opened (its key derived) once, as {@code OpenRepositories} keeps it;
   * each backup in a fresh session (its own index load) that first rereads the format blob, lists
   * the snapshots and takes the newest one of the same host and path as parent.
   */
  @Command(name = "warm-backup")
  static final class WarmBackup extends SteleCommand {
    @Mixin RepositoryOptions repository;

    @Option(names = "--runs", defaultValue = "3")
    int runs;

    @Option(
        names = "--before-run",
        paramLabel = "CMD",
        description =
            "A shell command run, untimed, before each run after the first ($RUN: its number).")
    String beforeRun;

    @Parameters(paramLabel = "DIR")
    Path dir;

    @Override
    public Integer call() throws Exception {
      String host = "bench/warm-backup";
      List<String> paths = FileBackup.sourcePaths(List.of(dir));
      try (Repository repo = repository.open(env())) {
        for (int run = 1; run <= runs; run++) {
          if (run > 1 && beforeRun != null) {
            ProcessBuilder pb = new ProcessBuilder("sh", "-c", beforeRun).inheritIO();
            pb.environment().put("RUN", Integer.toString(run));
            if (pb.start().waitFor() != 0) {
              throw new CliException(ExitCode.ERROR, "--before-run failed before run " + run);
            }
          }
          long t0 = System.nanoTime();
          long cpu0 = cpuNanos();
          SnapshotManifest.Stats s;
          try (Repository session = repo.session(() -> {})) {
            session.store().read(RepositoryFormat.BLOB);
            FileBackupOptions options = FileBackupOptions.defaults(host);
            for (SnapshotCatalog.Entry e : new SnapshotCatalog(session).list()) {
              if (e.manifest().host().equals(host) && e.manifest().paths().equals(paths)) {
                options = options.withParent(e.manifest(), e.id().hex());
              }
            }
            s =
                new FileBackup(session, options, FileBackupListener.NONE)
                    .run(List.of(dir))
                    .manifest()
                    .stats();
          }
          out()
              .printf(
                  Locale.ROOT,
                  "run %d wall %.3f cpu %.3f files %d files_new %d bytes_new %d%n",
                  run,
                  (System.nanoTime() - t0) / 1e9,
                  (cpuNanos() - cpu0) / 1e9,
                  s.files(),
                  s.filesNew(),
                  s.bytesNew());
          out().flush();
        }
      }
      return ExitCode.OK;
    }

    private static long cpuNanos() {
      return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
  }

  /**
   * Opens the repository and loads its index, the fixed cost of every command that reads one, and
   * prints how long each part took; with {@code --heap}, also the heap the loaded index holds (live
   * heap after a full collection, with and without it), whose two collections the times leave out.
   */
  @Command(name = "open")
  static final class Open extends SteleCommand {
    @Mixin RepositoryOptions repository;

    @Option(names = "--heap", description = "Also measure the live heap the index holds.")
    boolean heap;

    @Override
    public Integer call() throws Exception {
      long t0 = System.nanoTime();
      try (Repository repo = repository.open(env())) {
        long opened = System.nanoTime();
        long before = heap ? liveHeap() : 0;
        long t1 = System.nanoTime();
        int chunks = repo.loadIndex().chunkCount();
        long t2 = System.nanoTime();
        long after = heap ? liveHeap() : 0;
        out().printf(Locale.ROOT, "open_s %.3f%n", (opened - t0) / 1e9);
        out().printf(Locale.ROOT, "index_load_s %.3f%n", (t2 - t1) / 1e9);
        out().printf(Locale.ROOT, "index_chunks %d%n", chunks);
        out().printf(Locale.ROOT, "index_packs %d%n", repo.index().packs().size());
        if (heap) {
          out().printf(Locale.ROOT, "index_heap_bytes %d%n", after - before);
          out().printf(Locale.ROOT, "heap_after_index_bytes %d%n", after);
        }
      }
      return ExitCode.OK;
    }

    private static long liveHeap() {
      Runtime runtime = Runtime.getRuntime();
      runtime.gc();
      return runtime.totalMemory() - runtime.freeMemory();
    }
  }
}
