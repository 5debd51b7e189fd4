package dev.stele.cli;

import dev.stele.repo.Hosts;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotUpload;
import dev.stele.snapshot.UploadStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele snapshot create}: back up paths into a new snapshot. The parent (whose unchanged
 * files are reused unread) is {@code --parent}, or else the latest snapshot of the same paths from
 * the same host.
 */
@Command(name = "create", description = "Back up PATHs into a new snapshot.")
final class SnapshotCreateCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or directories to back up.")
  List<Path> paths;

  @Option(names = "--tag", paramLabel = "TAG", description = "Label the snapshot (repeatable).")
  List<String> tags = List.of();

  @Option(
      names = "--exclude",
      paramLabel = "GLOB",
      description =
          "Skip matching entries (repeatable): a GLOB without '/' matches names anywhere,"
              + " one with '/' matches absolute paths.")
  List<String> excludes = List.of();

  @Option(names = "--host", paramLabel = "HOST", description = "Host name to record.")
  String host;

  @Option(
      names = "--parent",
      paramLabel = "SNAPSHOT",
      description =
          "Reuse unchanged files from SNAPSHOT (default: latest of these paths and host).")
  String parent;

  @Option(
      names = "--retain",
      paramLabel = "DURATION",
      description =
          "Keep the snapshot at least this long (e.g. 90d, 12h, 2w): it expires then, and in a"
              + " repository with a lock mode every blob it uses is retained until then.")
  String retain;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--threads", hidden = true, description = "Reader and sealer threads, each.")
  int threads;

  @SuppressWarnings("try") // the size scan runs beside the backup until closed
  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    try (ServerSource server = repository.serverSource(env)) {
      if (server != null) {
        return throughServer(env, server);
      }
    }
    try (Repository repo = repository.open(env)) {
      String hostName = host != null ? host : Hosts.name();
      List<String> absolute = FileBackup.sourcePaths(paths);
      SnapshotCatalog catalog = new SnapshotCatalog(repo);
      SnapshotCatalog.Entry parentEntry =
          parent != null ? catalog.resolve(parent) : catalog.latest(hostName, absolute);
      FileBackupOptions options =
          FileBackupOptions.defaults(hostName).withTags(tags).withExcludes(excludes);
      if (retain != null) {
        options =
            options.withExpiry(
                env.clock().instant().plus(DurationOption.parse("--retain", retain)));
      }
      if (threads > 0) {
        options = options.withThreads(threads);
      }
      if (parentEntry != null) {
        options = options.withParent(parentEntry.manifest(), parentEntry.id().hex());
      }
      FileBackup.Result result;
      try (Progress progress = Progress.start("backup", env);
          SizeScan scan = SizeScan.start(env, paths, excludes, progress.totalBytes)) {
        result = new FileBackup(repo, options, listener(progress)).run(paths);
      }
      print(result, parentEntry);
      return result.warnings().isEmpty() ? ExitCode.OK : ExitCode.WARNINGS;
    }
  }

  /**
   * Through a repository server, as an Append user: the files are walked here and sent, the server
   * stores them (docs/server.md, "Creating snapshots"). The parent is chosen as above among the
   * snapshots the user may read, and its trees are read through the server to tell which files are
   * unchanged.
   */
  @SuppressWarnings("try") // the size scan runs beside the upload until closed
  private int throughServer(CliEnvironment env, ServerSource server) throws Exception {
    String hostName = host != null ? host : Hosts.name();
    List<String> absolute = FileBackup.sourcePaths(paths);
    SnapshotCatalog.Entry parentEntry = null;
    if (parent != null) {
      parentEntry = server.resolve(parent);
    } else {
      for (SnapshotCatalog.Entry e : server.scan().live()) {
        if (e.manifest().host().equals(hostName) && e.manifest().paths().equals(absolute)) {
          parentEntry = e;
        }
      }
    }
    UploadStream.Header header =
        new UploadStream.Header(
            hostName,
            Hosts.user(),
            absolute,
            tags,
            Map.of(),
            retain == null
                ? null
                : env.clock().instant().plus(DurationOption.parse("--retain", retain)),
            parentEntry == null ? null : parentEntry.id().hex());
    Id parentRoot = parentEntry == null ? null : Id.parse(parentEntry.manifest().tree());
    List<List<String>> warnings = new ArrayList<>();
    SnapshotCatalog.Entry created;
    try (Progress progress = Progress.start("backup", env);
        SizeScan scan = SizeScan.start(env, paths, excludes, progress.totalBytes)) {
      SnapshotUpload upload = new SnapshotUpload(server.objects(), excludes, listener(progress));
      created = server.create(out -> warnings.add(upload.write(paths, header, parentRoot, out)));
    }
    FileBackup.Result result =
        new FileBackup.Result(created.id(), created.manifest(), warnings.get(0));
    print(result, parentEntry);
    return result.warnings().isEmpty() ? ExitCode.OK : ExitCode.WARNINGS;
  }

  private static FileBackupListener listener(Progress progress) {
    return new FileBackupListener() {
      @Override
      public void bytesRead(long bytes) {
        progress.bytes.addAndGet(bytes);
      }

      @Override
      public void fileDone(Path path, long bytes, boolean reused) {
        progress.files.incrementAndGet();
        if (reused) {
          progress.bytes.addAndGet(bytes);
        }
      }

      @Override
      public void warning(String message) {
        progress.println("warning: " + message);
      }
    };
  }

  private void print(FileBackup.Result result, SnapshotCatalog.Entry parentEntry) {
    SnapshotManifest.Stats s = result.manifest().stats();
    if (json) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("id", result.id().hex());
      o.put("shortId", result.id().shortHex());
      o.put("parent", parentEntry == null ? null : parentEntry.id().hex());
      o.put("time", result.manifest().time());
      o.put("paths", Format.paths(result.manifest().paths()));
      o.put("expires", result.manifest().expires());
      o.put("stats", s);
      o.put("warnings", result.warnings());
      out().println(Format.json(o));
      return;
    }
    if (parentEntry != null) {
      out().println("parent snapshot " + parentEntry.id().shortHex());
    }
    out()
        .printf(
            "files:    %d (%d new or changed) in %d directories, %s%n",
            s.files(), s.filesNew(), s.dirs(), Format.bytes(s.bytes()));
    out()
        .printf(
            "added:    %s in %d chunks, %s stored%n",
            Format.bytes(s.bytesNew()), s.chunksNew(), Format.bytes(s.bytesStored()));
    if (!result.warnings().isEmpty()) {
      out().printf("warnings: %d (see above)%n", result.warnings().size());
    }
    out()
        .printf(
            "snapshot %s saved in %s (%s)%n",
            result.id().shortHex(),
            Format.seconds(s.seconds()),
            Format.rate(s.bytes(), s.seconds()));
  }
}
