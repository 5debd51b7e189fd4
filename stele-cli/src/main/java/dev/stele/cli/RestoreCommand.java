package dev.stele.cli;

import dev.stele.snapshot.FileName;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.SnapshotCatalog;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore}: a snapshot, or one path of it, into a directory. A directory's contents go
 * into the target; a file or link becomes {@code TARGET/<name>}. Existing files and links are
 * replaced, never written through; a directory against a file either way is one warning
 * (docs/cli.md).
 *
 * <p>It also groups Velero's {@code restore create|get|describe}, which work against a cluster. A
 * snapshot is never called {@code create}, {@code get} or {@code describe} (ids are hex, or {@code
 * latest}), so the two uses cannot be confused; picocli takes those words as subcommands. That is
 * why SNAPSHOT and {@code --target} are checked here rather than declared required: picocli would
 * demand them before it reached a subcommand. {@link Main} adds those subcommands only to a run
 * that names one or builds the whole tree: their classes need the Kubernetes client's, which a
 * restore from a local repository runs without (the launcher's short class path).
 */
@Command(
    name = "restore",
    description =
        "Restore a snapshot, or a path of it, into a directory; or, with a subcommand, create and"
            + " inspect the Restores of a cluster.")
final class RestoreCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Parameters(
      paramLabel = "SNAPSHOT[:PATH]",
      arity = "0..1",
      description = "Snapshot (id, prefix or 'latest') and an absolute path in it (default /).")
  String ref;

  @Option(
      names = {"-t", "--target"},
      paramLabel = "DIR",
      description = "Directory to restore into (created if missing); required.")
  Path target;

  @Option(names = "--threads", hidden = true, description = "Writer threads.")
  int threads = Math.max(2, Runtime.getRuntime().availableProcessors());

  @SuppressWarnings("try") // the progress line is cleared before the summary, then closed again
  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    if (ref == null) {
      throw CliException.usage(
          "restore needs SNAPSHOT[:PATH] and --target DIR, or a subcommand (see 'stele restore"
              + " --help')");
    }
    if (target == null) {
      throw CliException.usage("restore needs --target DIR, the directory to restore into");
    }
    SnapshotRef r = SnapshotRef.parse(ref, false);
    try (SnapshotSource source = repository.source(env, asOf)) {
      SnapshotCatalog.Entry snapshot = source.resolve(r.snapshot());
      FileRestore.Result result;
      try (Progress progress = Progress.start("restore", env)) {
        FileRestoreListener listener =
            new FileRestoreListener() {
              @Override
              public void planned(long files, long bytes) {
                progress.totalBytes.set(bytes);
              }

              @Override
              public void bytesWritten(long bytes) {
                progress.bytes.addAndGet(bytes);
              }

              @Override
              public void fileDone() {
                progress.files.incrementAndGet();
              }

              @Override
              public void warning(String message) {
                progress.println("warning: " + message);
              }
            };
        long t0 = System.nanoTime();
        result = source.restore(threads, listener).run(snapshot.manifest(), r.path(), target);
        double seconds = (System.nanoTime() - t0) / 1e9;
        progress.close();
        out()
            .printf(
                "restored %d files in %d directories, %s, from snapshot %s to %s in %s (%s)%n",
                result.files(),
                result.directories(),
                Format.bytes(result.bytes()),
                snapshot.id().shortHex(),
                FileName.display(FileName.ofPath(target)),
                Format.seconds(seconds),
                Format.rate(result.bytes(), seconds));
      }
      if (result.damaged() > 0) {
        err()
            .printf(
                "stele: restore incomplete: %d %s not restored from damaged data (named above)%n",
                result.damaged(), result.damaged() == 1 ? "file" : "files");
        return ExitCode.DAMAGED;
      }
      if (!result.warnings().isEmpty()) {
        out().printf("warnings: %d (see above)%n", result.warnings().size());
        return ExitCode.WARNINGS;
      }
      return ExitCode.OK;
    }
  }
}
