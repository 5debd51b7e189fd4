package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Restores a snapshot, or one path of it, into a directory, and never outside it.
 *
 * <p>First it walks the trees under the path (reading nothing else) and makes every entry in the
 * target: directories, empty files, symbolic links, FIFOs, sockets and device nodes, each relative
 * to its open parent directory ({@link TargetDir}), so that a symbolic link or a swapped directory
 * in the target is replaced or refused, never followed. It plans where each file's content comes
 * from: from a repository, which byte ranges of which packs feed which files ({@link PackPlan});
 * through a {@link ChunkReader} such as a repository server, which chunk ids ({@link ChunkPlan}).
 * Then worker threads read each chunk once and write it to every file position that uses it; pages
 * of zeros are left as holes, so sparse files stay sparse. A file gets its mode, owner and time as
 * soon as its last chunk lands; a file that lost a chunk is removed at the end. Hard links and
 * directory metadata come last.
 *
 * <p>What is already in the target: a directory is entered; a file, link or special file is
 * replaced (unlinked, so a hard link to a file elsewhere is never written through); a directory
 * where the snapshot has something else, or a file where it has a directory, is left as it is with
 * one warning. An entry whose name is not one path element ({@code ..}, {@code a/b}) is refused.
 *
 * <p>Concurrency: one instance runs one restore; it owns and closes its executors. The walk runs on
 * several threads, one directory at a time each: the counters are atomic, the warnings and the
 * hard-link map locked, the plan's additions synchronized ({@link ContentPlan}).
 */
public final class FileRestore {
  private final int threads;
  private final FileRestoreListener listener;
  private final SnapshotBrowser browser;
  private final List<String> warnings = new ArrayList<>();

  /** The file made first for each inode of several names; guarded by itself. */
  private final Map<String, OutputFile> firstByInode = new HashMap<>();

  private final ContentPlan contents;
  private final AtomicLong damaged = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private boolean root;
  private TargetDir target;
  private final AtomicLong fileCount = new AtomicLong();
  private final AtomicLong directoryCount = new AtomicLong();

  /** Entries made without content of their own: symbolic links, special files, hard links. */
  private final AtomicLong otherCount = new AtomicLong();

  private final AtomicLong byteCount = new AtomicLong();

  /** Whether an entry already in the target stays (a directory is still entered). */
  private boolean keepExisting;

  private final AtomicLong keptCount = new AtomicLong();

  /** A restore from {@code repo}, its index loaded. */
  public FileRestore(Repository repo, int threads, FileRestoreListener listener) {
    this.threads = threads;
    this.listener = listener;
    this.browser = new SnapshotBrowser(repo);
    this.contents = new PackPlan(repo, this);
  }

  /** A restore that reads trees through {@code browser} and file contents from {@code chunks}. */
  public FileRestore(
      SnapshotBrowser browser, ChunkReader chunks, int threads, FileRestoreListener listener) {
    this.threads = threads;
    this.listener = listener;
    this.browser = browser;
    this.contents = new ChunkPlan(chunks, this);
  }

  /**
   * What was restored, counted as the backup counts what it read: {@code files} every entry that is
   * not a directory (regular files, each name of a hard-linked one, symbolic links, special files),
   * {@code directories} every directory, the one restored into the target included.
   *
   * @param damaged files that were not restored because a chunk of theirs could not be read (each
   *     named by a warning); warnings without damage are entries refused or left incomplete
   * @param kept entries not restored because the target had one there already ({@link
   *     #keepExisting})
   */
  public record Result(
      long files, long directories, long bytes, List<String> warnings, long damaged, long kept) {}

  /**
   * Leaves every entry already in the target as it is, instead of replacing it: only what is
   * missing is restored (an existing directory is entered, as always). Returns this.
   */
  public FileRestore keepExisting() {
    keepExisting = true;
    return this;
  }

  /**
   * Restores {@code path} of {@code snapshot} into {@code target}: a directory's contents go into
   * {@code target}, a file or link becomes {@code target/<name>}.
   */
  public Result run(SnapshotManifest snapshot, String path, Path targetDir) throws IOException {
    Node start = browser.find(snapshot, path);
    return restore(
        targetDir,
        t -> {
          if (start.isDirectory()) {
            // The target stands for the directory restored, as the backup counted its source.
            directoryCount.incrementAndGet();
            collectChildren(start, t);
          } else {
            collect(start, t);
          }
        });
  }

  /**
   * Restores the entry at {@code path} below {@code from} of {@code snapshot} to the same place
   * below {@code target}: {@code /a/b} of the snapshot's {@code from} becomes {@code target/a/b}.
   * Directories on the way are made if missing and entered if there, never through a symbolic link
   * (one on the way fails the restore); a path with {@code ..} or {@code .} is refused.
   *
   * @throws java.nio.file.NoSuchFileException if the snapshot has no such path
   * @throws IllegalArgumentException if {@code path} names nothing below {@code from}
   */
  public Result runAt(SnapshotManifest snapshot, String from, String path, Path targetDir)
      throws IOException {
    List<String> names = new ArrayList<>();
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(path + ": a path with . or .. is not restored");
      }
      if (!segment.isEmpty()) {
        names.add(segment);
      }
    }
    if (names.isEmpty()) {
      return run(snapshot, from, targetDir);
    }
    List<Node> nodes = new ArrayList<>();
    String at = from;
    for (String name : names) {
      at = at + "/" + name;
      nodes.add(browser.find(snapshot, at));
    }
    return restore(targetDir, t -> collectAlong(nodes, t));
  }

  private interface Collect {
    void into(TargetDir target) throws IOException;
  }

  private Result restore(Path targetDir, Collect collect) throws IOException {
    Files.createDirectories(targetDir);
    try (TargetDir t = TargetDir.openTarget(targetDir)) {
      target = t;
      root = Libc.isRoot();
      walk(() -> collect.into(t));
      listener.planned(fileCount.get(), byteCount.get());
      writeContents();
      finish(t);
    }
    return new Result(
        fileCount.get() - lost.get() + otherCount.get(),
        directoryCount.get(),
        byteCount.get(),
        List.copyOf(warnings),
        damaged.get(),
        keptCount.get());
  }

  /**
   * Runs the walk on {@link #threads} walkers: each subdirectory is a task of its own, so two
   * walkers make the entries of different directories at once (the walk is mostly system calls:
   * {@code openat}, {@code mkdirat}, {@code statx}, {@code close}, and with one walker it was a
   * quarter of a restore's time with the second core idle).
   */
  private void walk(Walk walk) throws IOException {
    AtomicInteger n = new AtomicInteger();
    ForkJoinPool pool =
        new ForkJoinPool(
            threads,
            p -> {
              ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
              t.setName("stele-restore-walk-" + n.incrementAndGet());
              return t;
            },
            null,
            false);
    try {
      pool.invoke(walker(walk));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      pool.shutdownNow();
    }
  }

  private interface Walk {
    void run() throws IOException;
  }

  private static ForkJoinTask<Void> walker(Walk walk) {
    return ForkJoinTask.adapt(
        () -> {
          try {
            walk.run();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        null);
  }

  /** Makes or enters each directory of {@code nodes} but the last, then restores the last. */
  private void collectAlong(List<Node> nodes, TargetDir dir) throws IOException {
    Node node = nodes.get(0);
    if (nodes.size() == 1) {
      collect(node, dir);
      return;
    }
    String shown = dir.shown(node.name());
    byte[] name = Libc.cString(FileName.encode(FileName.requireOneElement(node.name())));
    try {
      Libc.mkdir(dir.fd(), name, shown);
    } catch (FileAlreadyExistsException e) {
      // Entered below without following a link: what is there must be a directory.
    }
    try (TargetDir child = dir.enterDirectory(name, shown, node)) {
      directoryCount.incrementAndGet();
      collectAlong(nodes.subList(1, nodes.size()), child);
    }
  }

  TargetDir target() {
    return target;
  }

  /**
   * Makes the entries of {@code dirNode} in {@code dir}: its subdirectories as tasks of their own,
   * which any walker may take, the rest here. Returns once every one of them is done, whatever
   * failed, so that no task uses {@code dir}'s descriptor after the caller closes it (a number the
   * kernel may have given to another file by then).
   */
  private void collectChildren(Node dirNode, TargetDir dir) throws IOException {
    List<ForkJoinTask<Void>> subdirectories = new ArrayList<>();
    RuntimeException failed = null;
    try {
      for (Node child : browser.tree(dirNode).nodes()) {
        if (child.isDirectory()) {
          subdirectories.add(walker(() -> collect(child, dir)).fork());
        } else {
          collect(child, dir);
        }
      }
    } finally {
      for (ForkJoinTask<Void> task : subdirectories) {
        try {
          task.join();
        } catch (RuntimeException e) {
          failed = failed == null ? e : failed;
        }
      }
    }
    if (failed instanceof UncheckedIOException e) {
      throw e.getCause();
    } else if (failed != null) {
      throw failed;
    }
  }

  /** Makes {@code node} in {@code dir}, or says in one warning why it cannot. */
  private void collect(Node node, TargetDir dir) throws IOException {
    if (node.isFile() && node.links() > 1) {
      // Two walkers may meet names of one inode at once: the first name met is made, and the
      // others are linked to it at the end.
      synchronized (firstByInode) {
        collectEntry(node, dir);
      }
    } else {
      collectEntry(node, dir);
    }
  }

  private void collectEntry(Node node, TargetDir dir) throws IOException {
    String shown = dir.shown(node.name());
    byte[] name;
    try {
      name = Libc.cString(FileName.encode(FileName.requireOneElement(node.name())));
    } catch (IllegalArgumentException e) {
      warn(
          dir.shown
              + ": the snapshot names an entry '"
              + FileName.display(node.name())
              + "', which is not a file name: not restored");
      return;
    }
    if (node.kind().isDevice() && !root) {
      warn(shown + ": " + describe(node.kind()) + ", which only root can make: not restored");
      return;
    }
    try {
      // A file's chunks are looked up before anything in the way is removed: a file that cannot
      // be made leaves what the target has.
      OutputFile first = node.isFile() ? firstLink(node) : null;
      ContentPlan.Planned planned = null;
      if (node.isFile() && first == null) {
        planned = contents.locate(node, shown);
        if (planned == null) {
          return;
        }
      }
      // Each entry is made first and what is in the way looked at only if the name is taken: into
      // an empty target, that saves a statx per entry.
      switch (node.kind()) {
        case DIRECTORY -> {
          boolean exists = false;
          try {
            Libc.mkdir(dir.fd(), name, shown);
          } catch (FileAlreadyExistsException e) {
            Libc.Stat existing = Libc.lstat(dir.fd(), name, shown);
            if (existing != null && !makeRoom(dir, name, shown, node, existing)) {
              return;
            }
            exists = existing != null && existing.isDirectory();
            if (!exists) {
              Libc.mkdir(dir.fd(), name, shown);
            }
          }
          try (TargetDir child = dir.enterDirectory(name, shown, node)) {
            directoryCount.incrementAndGet();
            collectChildren(node, child);
          }
        }
        case FILE -> {
          if (first != null) {
            // The link is made at the end; what is in the way goes now, as for any entry.
            if (clear(dir, name, shown, node)) {
              dir.links.add(new TargetDir.HardLink(name, shown, first));
            }
          } else {
            int fd = make(dir, name, shown, node, () -> dir.createFile(name, shown));
            if (fd >= 0) {
              collectFile(node, dir, name, shown, planned, fd);
            }
          }
        }
        case SYMLINK -> {
          if (make(dir, name, shown, node, () -> dir.createSymlink(name, shown, node)) >= 0) {
            otherCount.incrementAndGet();
            metadata(shown, () -> dir.setSymlinkMetadata(name, shown, node, root));
          }
        }
        case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE -> {
          if (make(dir, name, shown, node, () -> dir.createSpecial(name, shown, node)) >= 0) {
            otherCount.incrementAndGet();
            metadata(shown, () -> dir.setSpecialMetadata(name, shown, node, root));
          }
        }
      }
    } catch (Libc.Fatal e) {
      throw e;
    } catch (FileSystemException e) {
      warn(shown + ": not restored (" + reason(e) + ")");
    }
  }

  private interface Create {
    int run() throws IOException;
  }

  /**
   * Makes the entry for {@code node} with {@code create}; if the name is taken, clears the way and
   * makes it once more. Returns what {@code create} returned, or -1 (with a warning) if what is in
   * the way stays.
   */
  private int make(TargetDir dir, byte[] name, String shown, Node node, Create create)
      throws IOException {
    try {
      return create.run();
    } catch (FileAlreadyExistsException e) {
      return clear(dir, name, shown, node) ? create.run() : -1;
    }
  }

  /** Clears the way for {@code node} in {@code dir} (see {@link #makeRoom}); false if it stays. */
  private boolean clear(TargetDir dir, byte[] name, String shown, Node node) throws IOException {
    Libc.Stat existing = Libc.lstat(dir.fd(), name, shown);
    return existing == null || makeRoom(dir, name, shown, node, existing);
  }

  /**
   * Clears the way for {@code node} where {@code existing} is: a directory stays for a directory; a
   * symbolic link is removed (itself, never what it points to), and so is any other entry that is
   * not a directory where the snapshot does not have one. False, with a warning, for a directory
   * against a non-directory either way: restore never deletes a directory, nor turns a file into
   * one.
   */
  private boolean makeRoom(TargetDir dir, byte[] name, String shown, Node node, Libc.Stat existing)
      throws IOException {
    if (keepExisting && !(existing.isDirectory() && node.isDirectory())) {
      keptCount.incrementAndGet();
      return false;
    }
    if (existing.isDirectory() != node.isDirectory() && existing.type() != Libc.S_IFLNK) {
      warn(
          shown
              + ": is "
              + describe(existing.type())
              + " in the target, "
              + describe(node.kind())
              + " in the snapshot: not restored");
      return false;
    }
    if (!existing.isDirectory()) {
      Libc.unlink(dir.fd(), name, shown);
    }
    return true;
  }

  /** The file restored first under another name of {@code node}'s inode, or null. */
  private OutputFile firstLink(Node node) {
    return node.links() > 1 ? firstByInode.get(inodeKey(node)) : null;
  }

  /**
   * Plans the file just created as {@code fd} (which it closes). It stays empty until its chunks
   * arrive; its size is set when the last one has, if the chunks do not reach it.
   */
  private void collectFile(
      Node node, TargetDir dir, byte[] name, String shown, ContentPlan.Planned planned, int fd)
      throws IOException {
    OutputFile file;
    try {
      file = new OutputFile(this, dir, name, node, Libc.fstat(fd, shown), node.chunks().size());
      if (node.chunks().isEmpty()) {
        if (node.size() > 0) {
          Libc.truncate(fd, node.size(), shown); // a hole all through
        }
        setMetadata(fd, node, shown);
      }
      Libc.close(fd, shown);
    } catch (IOException e) {
      Libc.closeQuietly(fd);
      try {
        Libc.unlink(dir.fd(), name, shown); // restore just made it: no empty file stays behind
      } catch (IOException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    fileCount.incrementAndGet();
    byteCount.addAndGet(node.size());
    if (node.links() > 1) {
      firstByInode.put(inodeKey(node), file);
    }
    planned.add(file);
    if (node.chunks().isEmpty()) {
      fileDone();
    }
  }

  private void writeContents() throws IOException {
    boolean finished = false;
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "stele-restore-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      runAll(pool, contents.prepare());
      runAll(pool, contents.reads());
      finished = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("restore interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
      if (!finished) {
        // Files left open by a restore that stops short must not stay open in a long-lived process.
        contents.abandon();
      }
    }
  }

  private static void runAll(ExecutorService pool, List<Callable<Void>> tasks)
      throws InterruptedException, ExecutionException {
    List<Future<Void>> work = new ArrayList<>(tasks.size());
    for (Callable<Void> task : tasks) {
      work.add(pool.submit(task));
    }
    for (Future<Void> f : work) {
      f.get();
    }
  }

  /** A chunk arrived, {@code plain[0, length)}: it is written to every place in {@code targets}. */
  void deliver(List<ContentPlan.Target> targets, byte[] plain, int length) throws IOException {
    for (ContentPlan.Target t : targets) {
      if (t.file().write(t.offset(), plain, length)) {
        listener.bytesWritten(length);
      }
    }
  }

  /** The content of a file to be made lacks chunk {@code id}: the file is not made. */
  void missing(String shown, Id id) {
    damaged.incrementAndGet();
    warn(shown + ": chunk " + id.shortHex() + " is missing from the repository: not restored");
  }

  /** {@code file} is no longer the file restore made: it is not written. */
  void replaced(OutputFile file) {
    lost.incrementAndGet();
    warn(file.shown() + ": replaced during the restore: not written");
  }

  /** A chunk cannot be read: every file in {@code targets} is lost. */
  void lose(List<ContentPlan.Target> targets, String why) throws IOException {
    for (ContentPlan.Target t : targets) {
      if (t.file().lose()) {
        damaged.incrementAndGet();
        lost.incrementAndGet();
        warn(t.file().shown() + ": not restored, and removed: " + why);
      }
    }
  }

  /**
   * Last, directory by directory below the target: removes the files that lost a chunk, makes the
   * hard links and gives each directory its metadata after everything in it is done.
   */
  private void finish(TargetDir dir) throws IOException {
    for (OutputFile f : dir.unfinished) {
      try {
        dir.removeIf(f.name(), f.stat(), f.shown());
      } catch (Libc.Fatal e) {
        throw e;
      } catch (FileSystemException e) {
        warn(f.shown() + ": cannot remove the damaged file (" + reason(e) + ")");
      }
    }
    for (TargetDir.HardLink link : dir.links) {
      if (link.first().failed()) {
        warn(link.shown() + ": not linked to " + link.first().shown() + ", which is not restored");
        continue;
      }
      try {
        dir.link(target, link);
        otherCount.incrementAndGet();
      } catch (Libc.Fatal e) {
        throw e;
      } catch (FileSystemException e) {
        warn(link.shown() + ": not restored (" + reason(e) + ")");
      }
    }
    for (TargetDir child : dir.children) {
      try (child) {
        if (!child.reopen()) {
          warn(child.shown + ": replaced during the restore: left as it is");
          continue;
        }
        finish(child);
      } catch (Libc.Fatal e) {
        throw e;
      } catch (FileSystemException e) {
        warn(child.shown + ": replaced during the restore: left as it is (" + reason(e) + ")");
      }
    }
    if (dir.node != null) {
      setMetadata(dir.fd(), dir.node, dir.shown);
    }
  }

  /**
   * Gives the file or directory open as {@code fd} {@code node}'s owner (as root), mode and time.
   */
  private void setMetadata(int fd, Node node, String shown) {
    setMetadata(fd, node.uid(), node.gid(), node.mode(), node.mtimeNanos(), shown);
  }

  /** Gives the file or directory open as {@code fd} its owner (as root), mode and time. */
  void setMetadata(int fd, int uid, int gid, int mode, long mtimeNanos, String shown) {
    metadata(
        shown,
        () -> {
          if (root) {
            Libc.chown(fd, uid, gid, shown);
          }
          Libc.chmod(fd, mode & 07777, shown);
          Libc.setMtime(fd, mtimeNanos, shown);
        });
  }

  private interface MetadataStep {
    void run() throws IOException;
  }

  private void metadata(String shown, MetadataStep step) {
    try {
      step.run();
    } catch (FileSystemException e) {
      warn(shown + ": cannot set metadata (" + reason(e) + ")");
    } catch (IOException e) {
      warn(shown + ": cannot set metadata (" + e.getMessage() + ")");
    }
  }

  void fileDone() {
    listener.fileDone();
  }

  private static String reason(FileSystemException e) {
    return e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
  }

  private static String describe(int type) {
    Node.Kind kind = FileStat.kindOf(type);
    return kind == null ? "a special file" : describe(kind);
  }

  private static String describe(Node.Kind kind) {
    return switch (kind) {
      case FILE -> "a file";
      case DIRECTORY -> "a directory";
      case SYMLINK -> "a symbolic link";
      case FIFO -> "a FIFO";
      case SOCKET -> "a socket";
      case CHAR_DEVICE -> "a character device";
      case BLOCK_DEVICE -> "a block device";
    };
  }

  private static String inodeKey(Node node) {
    return node.device() + ":" + node.inode();
  }

  private void warn(String message) {
    synchronized (warnings) {
      warnings.add(message);
    }
    listener.warning(message);
  }
}
