package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Restores a snapshot, or one path of it, into a directory.
 *
 * <p>First it walks the trees under the path (reading nothing else), creates the directories and
 * plans which byte ranges of which packs feed which files. Then worker threads read each range
 * once, open its chunks and write them to every file position that uses them; pages of zeros are
 * left as holes in files sized up front, so sparse files stay sparse. A file gets its mode, owner
 * and times as soon as its last chunk lands; hard links, symbolic links and directory metadata come
 * last.
 *
 * <p>Concurrency: one instance runs one restore; it owns and closes its executor.
 */
public final class Restore {
  private static final int MAX_RANGE = 8 << 20;
  private static final int MAX_GAP = 256 << 10;
  private static final int PAGE = 4096;
  // Writes of at most 1 MiB: the JDK copies heap buffers through a cached direct buffer as large.
  private static final int WRITE_SLICE = 1 << 20;

  private final Repository repo;
  private final int threads;
  private final RestoreListener listener;
  private final SnapshotBrowser browser;
  private final boolean root = "root".equals(System.getProperty("user.name"));
  private final List<String> warnings = new ArrayList<>();
  private final List<Entry> directories = new ArrayList<>();
  private final List<Entry> symlinks = new ArrayList<>();
  private final List<Entry> links = new ArrayList<>();
  private final Map<String, Path> firstByInode = new HashMap<>();
  private final Map<String, TreeMap<Integer, Slot>> plan = new HashMap<>();
  private long fileCount;
  private long byteCount;

  public Restore(Repository repo, int threads, RestoreListener listener) {
    this.repo = repo;
    this.threads = threads;
    this.listener = listener;
    this.browser = new SnapshotBrowser(repo);
  }

  /** What was restored. */
  public record Result(long files, long directories, long bytes, List<String> warnings) {}

  private record Entry(Path path, Node node) {}

  /** One chunk in a pack and every place it goes. */
  private record Slot(PackEntry entry, List<Target> targets) {}

  private record Target(OutputFile file, long offset) {}

  /**
   * Restores {@code path} of {@code snapshot} into {@code target}: a directory's contents go into
   * {@code target}, a file or link becomes {@code target/<name>}.
   */
  public Result run(SnapshotManifest snapshot, String path, Path target) throws IOException {
    Node start = browser.find(snapshot, path);
    Files.createDirectories(target);
    if (start.isDirectory()) {
      collectChildren(start, target);
    } else {
      collect(start, target.resolve(start.name()));
    }
    listener.planned(fileCount, byteCount);
    writeContents();
    for (Entry e : links) {
      Path first = firstByInode.get(inodeKey(e.node()));
      Files.deleteIfExists(e.path());
      Files.createLink(e.path(), first);
    }
    for (Entry e : symlinks) {
      Files.deleteIfExists(e.path());
      Files.createSymbolicLink(e.path(), Path.of(e.node().target()));
      setOwner(e.path(), e.node());
    }
    for (int i = directories.size() - 1; i >= 0; i--) {
      setMetadata(directories.get(i).path(), directories.get(i).node());
    }
    return new Result(fileCount, directories.size(), byteCount, List.copyOf(warnings));
  }

  private void collectChildren(Node dir, Path into) throws IOException {
    for (Node child : browser.tree(dir).nodes()) {
      collect(child, into.resolve(child.name()));
    }
  }

  private void collect(Node node, Path path) throws IOException {
    switch (node.kind()) {
      case DIRECTORY -> {
        Files.createDirectories(path);
        directories.add(new Entry(path, node));
        collectChildren(node, path);
      }
      case SYMLINK -> symlinks.add(new Entry(path, node));
      case FILE -> collectFile(node, path);
      case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE ->
          warnings.add(path + ": " + node.kind() + " not restored");
    }
  }

  private void collectFile(Node node, Path path) throws IOException {
    if (node.links() > 1) {
      Path first = firstByInode.putIfAbsent(inodeKey(node), path);
      if (first != null) {
        links.add(new Entry(path, node));
        return;
      }
    }
    fileCount++;
    byteCount += node.size();
    OutputFile file = new OutputFile(path, node);
    long offset = 0;
    int planned = 0;
    for (Id id : node.chunks()) {
      Location location = repo.locate(id);
      if (location == null) {
        warn(path + ": chunk " + id.shortHex() + " is missing from the repository");
        break;
      }
      plan.computeIfAbsent(location.pack(), k -> new TreeMap<>())
          .computeIfAbsent(
              location.entry().offset(), k -> new Slot(location.entry(), new ArrayList<>()))
          .targets()
          .add(new Target(file, offset));
      offset += location.entry().rawLength();
      planned++;
    }
    file.remaining = planned;
    if (planned == 0) {
      file.createUnwritten();
    }
  }

  private void writeContents() throws IOException {
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
      List<Future<?>> work = new ArrayList<>();
      for (var pack : plan.entrySet()) {
        for (List<Slot> range : ranges(pack.getValue())) {
          work.add(pool.submit(() -> restoreRange(pack.getKey(), range)));
        }
      }
      for (Future<?> f : work) {
        f.get();
      }
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
    }
  }

  /** Splits a pack's slots into ranges read with one request each. */
  private static List<List<Slot>> ranges(TreeMap<Integer, Slot> slots) {
    List<List<Slot>> ranges = new ArrayList<>();
    List<Slot> current = new ArrayList<>();
    long start = 0;
    long end = 0;
    for (Slot s : slots.values()) {
      int off = s.entry().offset();
      if (!current.isEmpty()
          && (off - end > MAX_GAP || off + s.entry().length() - start > MAX_RANGE)) {
        ranges.add(current);
        current = new ArrayList<>();
      }
      if (current.isEmpty()) {
        start = off;
      }
      current.add(s);
      end = off + s.entry().length();
    }
    if (!current.isEmpty()) {
      ranges.add(current);
    }
    return ranges;
  }

  private Void restoreRange(String pack, List<Slot> range) throws IOException {
    int start = range.get(0).entry().offset();
    PackEntry last = range.get(range.size() - 1).entry();
    int length = last.offset() + last.length() - start;
    byte[] bytes;
    IOException rangeFailure = null;
    try {
      bytes = repo.store().read(pack, start, length);
    } catch (IOException e) {
      bytes = null;
      rangeFailure = e;
    }
    for (Slot slot : range) {
      byte[] plain;
      try {
        if (bytes == null) {
          throw rangeFailure;
        }
        plain = repo.openChunk(pack, slot.entry(), bytes, slot.entry().offset() - start);
      } catch (IOException e) {
        try {
          // On a versioned store, an overwritten pack is read from an older version.
          plain = repo.recoverChunk(pack, slot.entry(), e);
        } catch (IOException again) {
          failRange(List.of(slot), bytes == null ? pack + ": " + e.getMessage() : e.getMessage());
          continue;
        }
      }
      for (Target t : slot.targets()) {
        t.file().write(t.offset(), plain);
      }
    }
    return null;
  }

  private void failRange(List<Slot> slots, String why) throws IOException {
    for (Slot slot : slots) {
      for (Target t : slot.targets()) {
        warn(t.file().path + ": " + why);
        t.file().fail();
      }
    }
  }

  /** True if {@code data[from, to)} is all zeros. */
  private static boolean isZero(byte[] data, int from, int to) {
    for (int i = from; i < to; i++) {
      if (data[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private void setMetadata(Path path, Node node) {
    try {
      setOwner(path, node);
      Files.setAttribute(path, "unix:mode", node.mode(), LinkOption.NOFOLLOW_LINKS);
      Files.setLastModifiedTime(path, FileTime.from(node.mtimeNanos(), TimeUnit.NANOSECONDS));
    } catch (IOException | UnsupportedOperationException e) {
      warn(path + ": cannot set metadata (" + e.getMessage() + ")");
    }
  }

  private void setOwner(Path path, Node node) throws IOException {
    if (root) {
      Files.setAttribute(path, "unix:uid", node.uid(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(path, "unix:gid", node.gid(), LinkOption.NOFOLLOW_LINKS);
    }
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

  /**
   * A file being written. Opened on its first chunk, sized up front (so skipped zero chunks are
   * holes), closed and given its metadata when its last chunk lands.
   *
   * <p>Concurrency: chunks of one file may arrive from several threads; all state is guarded by the
   * instance's lock.
   */
  private final class OutputFile {
    final Path path;
    final Node node;
    int remaining;
    private RandomAccessFile file;

    OutputFile(Path path, Node node) {
      this.path = path;
      this.node = node;
    }

    /**
     * Writes a chunk at {@code offset}, page by page, skipping pages of zeros: the file was sized
     * up front, so they stay holes and a sparse file stays sparse.
     */
    synchronized void write(long offset, byte[] data) throws IOException {
      if (file == null) {
        Files.deleteIfExists(path);
        file = new RandomAccessFile(path.toFile(), "rw");
        file.setLength(node.size());
      }
      FileChannel channel = file.getChannel();
      int start = 0;
      while (start < data.length) {
        int end = Math.min(data.length, start + PAGE);
        if (isZero(data, start, end)) {
          start = end;
          continue;
        }
        while (end < data.length
            && end - start < WRITE_SLICE
            && !isZero(data, end, Math.min(data.length, end + PAGE))) {
          end = Math.min(data.length, end + PAGE);
        }
        ByteBuffer buf = ByteBuffer.wrap(data, start, end - start);
        long pos = offset + start;
        while (buf.hasRemaining()) {
          pos += channel.write(buf, pos);
        }
        start = end;
      }
      listener.bytesWritten(data.length);
      if (--remaining == 0) {
        close();
      }
    }

    /** A chunk of this file could not be restored; the file is finished without it. */
    synchronized void fail() throws IOException {
      if (--remaining == 0) {
        close();
      }
    }

    /** An empty file, or one none of whose chunks could be planned. */
    void createUnwritten() throws IOException {
      Files.deleteIfExists(path);
      try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
        f.setLength(node.chunks().isEmpty() ? node.size() : 0);
      }
      setMetadata(path, node);
      listener.fileDone();
    }

    private void close() throws IOException {
      if (file != null) {
        file.close();
        file = null;
      }
      setMetadata(path, node);
      listener.fileDone();
    }
  }
}
