package dev.stele.snapshot;

import dev.stele.chunk.ChunkStream;
import dev.stele.chunk.FastCdc;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Hosts;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.PackCheck;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Takes one snapshot of one or more paths.
 *
 * <p>A pipeline: walker threads list and stat directories (subdirectories in parallel, joined in
 * name order) and build trees; a file of at most the smallest chunk is one chunk, which the walker
 * reads, hashes and, if new, seals itself; larger files go to reader threads, which read, chunk and
 * hash them and hand each new chunk to a sealer thread (compression and encryption) in one of a few
 * spare arrays, or seal it themselves when none is free; the {@link ChunkWriter} packs and uploads
 * the sealed chunks. Files whose size, times, device and inode match the parent snapshot reuse its
 * chunk list unread, and directories whose entries all match reuse its tree chunk. A semaphore
 * bounds the files being read and the spares bound the chunks waiting to be sealed, so memory stays
 * flat whatever the input size, and a chunk costs no array of its own: a backup's heap holds its
 * buffers, not its throughput.
 *
 * <p>The snapshot is committed by a {@link SnapshotWriter}: its manifest is written last, once
 * every chunk is durable and indexed and what it reuses is retained as long as the snapshot needs;
 * a snapshot exists only once everything it names does.
 *
 * <p>Concurrency: one instance runs one backup; it owns and closes its executors.
 */
public final class FileBackup {
  private static final int FILES_IN_FLIGHT = 256;

  private final Repository repo;
  private final FileBackupOptions options;
  private final FileBackupListener listener;
  private final FastCdc chunker;
  private final Excludes excludes;
  private final Semaphore filesInFlight = new Semaphore(FILES_IN_FLIGHT);
  private final InFlight sealing = new InFlight();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final ThreadLocal<ChunkStream> streams;
  private final ThreadLocal<byte[]> wholeFiles;

  /**
   * Free arrays of the largest chunk's size for handing a chunk from a reader to a sealer, one per
   * sealer, made when first wanted. A reader that finds none seals the chunk itself: one large file
   * keeps the sealers and its reader busy, many files keep every reader busy, and nothing is
   * allocated per chunk.
   */
  private final BlockingQueue<byte[]> spares;

  private final AtomicInteger sparesToMake;
  private final List<String> warnings = new ArrayList<>();
  private final AtomicLong files = new AtomicLong();
  private final AtomicLong filesNew = new AtomicLong();
  private final AtomicLong dirs = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  /**
   * Walkers the pool may start beyond {@code threads} while others wait (for a file's reader, a
   * subdirectory's walk). Without a bound it started one for nearly every wait: some twenty walkers
   * in a first backup of the generated set, each with its buffers and zstd context, 35 MiB of peak
   * memory (docs/performance.md, eleventh round). With none, the Linux tree's walk stalled now and
   * then (7% slower); two cost neither. Waits cannot deadlock with the bound: the readers and
   * sealers a walker waits for have pools of their own, and a join runs the subdirectory tasks it
   * waits for when no other walker has taken them.
   */
  private static final int SPARE_WALKERS = 2;

  private ForkJoinPool walkers;
  private ExecutorService readers;
  private ExecutorService sealers;
  private SnapshotWriter snapshot;
  private ChunkWriter writer;

  public FileBackup(Repository repo, FileBackupOptions options, FileBackupListener listener) {
    this.repo = repo;
    this.options = options;
    this.listener = listener;
    var format = repo.format().chunker();
    this.chunker =
        new FastCdc(
            new dev.stele.chunk.ChunkerParams(format.minSize(), format.avgSize(), format.maxSize()),
            repo.gearTable());
    this.streams = ThreadLocal.withInitial(() -> new ChunkStream(chunker));
    this.wholeFiles = ThreadLocal.withInitial(() -> new byte[format.minSize()]);
    this.spares = new ArrayBlockingQueue<>(options.threads());
    this.sparesToMake = new AtomicInteger(options.threads());
    this.excludes = new Excludes(options.excludes());
  }

  /** The snapshot taken, with its id. */
  public record Result(Id id, SnapshotManifest manifest, List<String> warnings) {}

  /** Backs up {@code sources} (absolute or relative paths) and writes the snapshot manifest. */
  public Result run(List<Path> sources) throws IOException {
    Instant started = repo.clock().instant();
    long t0 = System.nanoTime();
    List<Path> absolute = sources(sources);
    for (Path p : absolute) {
      if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        throw new NoSuchFileException(p.toString(), null, "source does not exist");
      }
    }
    snapshot = SnapshotWriter.start(repo, options.uploads(), started, options.expires());
    writer = snapshot.chunks();
    walkers =
        new ForkJoinPool(
            options.threads(),
            walkerThreads(),
            null,
            false,
            0,
            options.threads() + SPARE_WALKERS,
            1,
            pool -> true,
            1,
            TimeUnit.MINUTES);
    readers = executor("stele-read", options.threads());
    sealers = executor("stele-seal", options.threads());
    try {
      distrustDamagedPacks(snapshot.index());
      ParentTree parentRoot =
          options.parent() == null
              ? null
              : ParentTree.of(repo, new SnapshotBrowser(repo).root(options.parent()));
      Id root = walk(() -> writeSyntheticRoot(absolute, parentRoot));
      awaitSealing();
      SnapshotCatalog.Entry written =
          snapshot.commit(
              chunks ->
                  new SnapshotManifest(
                      SnapshotManifest.VERSION,
                      started,
                      options.host(),
                      Hosts.user(),
                      sourcePaths(sources),
                      options.tags(),
                      options.parentId(),
                      root.hex(),
                      options.expires(),
                      new SnapshotManifest.Stats(
                          files.get(),
                          dirs.get(),
                          bytes.get(),
                          filesNew.get(),
                          chunks.chunksStored(),
                          chunks.bytesNew(),
                          chunks.bytesStored(),
                          warnings.size(),
                          (System.nanoTime() - t0) / 1e9),
                      options.labels()));
      return new Result(written.id(), written.manifest(), List.copyOf(warnings));
    } finally {
      walkers.shutdownNow();
      readers.shutdownNow();
      sealers.shutdownNow();
      snapshot.close();
    }
  }

  /** The sources as a snapshot records them: absolute, normalized, without duplicates, sorted. */
  public static List<String> sourcePaths(List<Path> sources) {
    return sources(sources).stream().map(Path::toString).toList();
  }

  private static List<Path> sources(List<Path> sources) {
    return sources.stream().map(p -> p.toAbsolutePath().normalize()).distinct().sorted().toList();
  }

  /**
   * The root tree mirrors the absolute paths of the sources: {@code /home/a/docs} becomes root →
   * home → a → docs, with the ancestors' own metadata.
   */
  private Id writeSyntheticRoot(List<Path> sources, ParentTree parentRoot) throws IOException {
    PathTrie trie = new PathTrie(Path.of("/"));
    sources.forEach(trie::add);
    if (trie.isSource) {
      Node root = FileStat.of(trie.path).toNode("", Node.Kind.DIRECTORY);
      return directory(trie.path, root, parentRoot).subtree();
    }
    return writeTrieLevel(trie, parentRoot);
  }

  private Id writeTrieLevel(PathTrie trie, ParentTree parentTree) throws IOException {
    List<Node> nodes = new ArrayList<>();
    for (var child : trie.children.entrySet()) {
      String name = child.getKey();
      Path path = child.getValue().path;
      Node parentNode = parentTree == null ? null : parentTree.tree().find(name);
      if (child.getValue().isSource) {
        Object node = visit(path, name, parentNode);
        if (node != null) {
          nodes.add(resolve(node));
        }
      } else {
        FileStat stat = FileStat.of(path);
        Id sub = writeTrieLevel(child.getValue(), ParentTree.of(repo, parentNode));
        nodes.add(stat.toNode(name, Node.Kind.DIRECTORY).withSubtree(sub));
      }
    }
    return storeTree(nodes, parentTree);
  }

  /**
   * A Node, or a Future of one for a file being read; null if the entry is skipped. {@code name} is
   * the entry's exact name ({@link FileName}).
   */
  private Object visit(Path path, String name, Node parentNode) throws IOException {
    if (excludes.matches(path, name)) {
      return null;
    }
    FileStat stat;
    try {
      stat = FileStat.of(path);
    } catch (NoSuchFileException e) {
      warn(path, "vanished during backup");
      return null;
    } catch (IOException e) {
      warn(path, "cannot read attributes (" + reason(e) + ")");
      return null;
    }
    Node.Kind kind = stat.kind();
    if (kind == null) {
      warn(path, "unknown file type " + Integer.toOctalString(stat.type()) + ", skipped");
      return null;
    }
    Node node = stat.toNode(name, kind);
    if (kind != Node.Kind.DIRECTORY) {
      files.incrementAndGet();
    }
    // Subdirectories are walked in parallel; the parent joins them in name order.
    return switch (kind) {
      case DIRECTORY ->
          ForkJoinTask.adapt(() -> directory(path, node, ParentTree.of(repo, parentNode))).fork();
      case SYMLINK -> node.withTarget(FileName.ofPath(Files.readSymbolicLink(path)));
      case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE -> node;
      case FILE -> file(path, stat, node, parentNode);
    };
  }

  @SuppressWarnings("FutureReturnValueIgnored") // a pending Node: the caller joins it
  private Object file(Path path, FileStat stat, Node node, Node parentNode) throws IOException {
    bytes.addAndGet(stat.size());
    if (node.unchangedFrom(parentNode) && writer.reuse(parentNode.chunks())) {
      listener.fileDone(path, stat.size(), true);
      return node.withChunks(parentNode.chunks());
    }
    filesNew.incrementAndGet();
    // A file of at most the smallest chunk is one chunk: the walker reads it itself, which costs
    // less than handing it to a reader and waiting for it (three thread wake-ups per file).
    if (isOneChunk(stat)) {
      return readOrWarn(path, stat, node);
    }
    acquire(filesInFlight, 1);
    CompletableFuture<Node> future = new CompletableFuture<>();
    readers.execute(
        () -> {
          try {
            future.complete(readOrWarn(path, stat, node));
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
            future.completeExceptionally(t);
          } finally {
            filesInFlight.release();
          }
        });
    return future;
  }

  /** The file's node, or null (with a warning) if it cannot be read. */
  private Node readOrWarn(Path path, FileStat stat, Node node) {
    try {
      return readFile(path, stat, node);
    } catch (IOException e) {
      // Once the backup is failing (an upload refused, say), reads cut short are not the file's
      // fault: the failure itself is reported, not one warning per file in flight.
      if (failure.get() == null) {
        warn(path, "cannot read (" + reason(e) + ")");
      }
      return null;
    }
  }

  private Node directory(Path dir, Node node, ParentTree parentTree) throws IOException {
    dirs.incrementAndGet();
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = list.sorted().toList();
    } catch (IOException e) {
      warn(dir, "cannot list (" + e.getMessage() + ")");
      children = List.of();
    }
    List<Object> pending = new ArrayList<>(children.size());
    for (Path child : children) {
      String name = FileName.of(child);
      Object visited = visit(child, name, parentTree == null ? null : parentTree.tree().find(name));
      if (visited != null) {
        pending.add(visited);
      }
    }
    List<Node> nodes = new ArrayList<>(pending.size());
    for (Object p : pending) {
      Node n = resolve(p);
      if (n != null) {
        nodes.add(n);
      }
    }
    return node.withSubtree(storeTree(nodes, parentTree));
  }

  /**
   * Stores a directory's tree and returns its id. A tree equal, node for node, to the parent
   * snapshot's encodes to the same bytes, so its id is the parent's: it is reused without encoding
   * or hashing it, as long as the repository still has a live copy (otherwise it is stored again,
   * which heals the parent too) and its pack is retained as long as this snapshot ({@link
   * ChunkWriter#reuse}).
   */
  private Id storeTree(List<Node> nodes, ParentTree parent) throws IOException {
    Tree tree = new Tree(nodes);
    if (parent != null && parent.tree().equals(tree) && writer.reuse(List.of(parent.id()))) {
      return parent.id();
    }
    return writer.store(ChunkType.TREE, tree.encode());
  }

  /**
   * Reads a file into chunks. If it changed while it was read (its size, mtime or ctime moved, or
   * the bytes read disagree with its size), the node records the bytes read with {@link
   * FileStat#changedWhileRead}, and a warning says so.
   */
  private Node readFile(Path path, FileStat stat, Node node) throws IOException {
    List<Id> ids = new ArrayList<>();
    long read;
    // Not following a link: a file swapped for a link since its lstat is not read through it (the
    // link's target, /etc/shadow say, would be recorded under the file's name).
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      byte[] whole = isOneChunk(stat) ? readWhole(channel, stat) : null;
      if (whole != null) {
        read = stat.size();
        if (read > 0) {
          ids.add(chunkRead(whole, 0, (int) read, false));
        }
      } else {
        channel.position(0);
        read =
            streams
                .get()
                .chunk(channel, (buf, off, len) -> ids.add(chunkRead(buf, off, len, true)));
      }
    }
    listener.fileDone(path, read, false);
    if (read == stat.size() && !changedSince(path, stat)) {
      return node.withChunks(ids);
    }
    bytes.addAndGet(read - stat.size());
    warn(
        path,
        "changed while it was read; recorded the "
            + read
            + " bytes read (the next backup reads it again)");
    return stat.changedWhileRead(read).toNode(node.name(), Node.Kind.FILE).withChunks(ids);
  }

  /** True for a file no larger than the smallest chunk, which is therefore one chunk. */
  private boolean isOneChunk(FileStat stat) {
    return stat.size() <= chunker.params().minSize();
  }

  /**
   * The whole content of a file no larger than the smallest chunk, which is then one chunk, without
   * the chunker's buffer: {@code [0, stat.size())} of this thread's array for such files, valid
   * until its next call; null if the file is not {@code stat.size()} bytes long now.
   */
  private byte[] readWhole(FileChannel channel, FileStat stat) throws IOException {
    byte[] whole = wholeFiles.get();
    ByteBuffer content = ByteBuffer.wrap(whole, 0, (int) stat.size());
    while (content.hasRemaining()) {
      if (channel.read(content) < 0) {
        return null;
      }
    }
    return channel.read(ByteBuffer.allocate(1)) < 0 ? whole : null;
  }

  /**
   * Hashes a chunk just read and, if it is new, stores it: on a sealer in a copy, if {@code
   * mayHandOff} and a spare array is free, else here.
   */
  private Id chunkRead(byte[] buf, int off, int len, boolean mayHandOff) throws IOException {
    Id id = repo.chunkId(buf, off, len);
    listener.bytesRead(len);
    if (writer.claim(id)) {
      byte[] spare = mayHandOff ? spare() : null;
      if (spare != null) {
        System.arraycopy(buf, off, spare, 0, len);
        seal(id, spare, len);
      } else {
        put(id, buf, off, len);
      }
    }
    return id;
  }

  /** A free spare array, made if fewer than allowed exist yet; null if none is free. */
  private byte[] spare() {
    byte[] spare = spares.poll();
    if (spare == null && sparesToMake.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      spare = new byte[chunker.params().maxSize()];
    }
    return spare;
  }

  /**
   * Seals and stores a chunk in this thread. A failure to store it fails the backup: it is the
   * repository's, not the file's (no warning that the file could not be read).
   */
  private void put(Id id, byte[] buf, int off, int len) throws IOException {
    try {
      writer.put(id, ChunkType.DATA, buf, off, len);
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, e);
      throw e;
    }
  }

  /** True if the file's attributes moved since {@code before}, or can no longer be read. */
  private static boolean changedSince(Path path, FileStat before) {
    try {
      return FileStat.of(path).changedSince(before);
    } catch (IOException e) {
      return true;
    }
  }

  /** Seals {@code spare[0, len)} on a sealer, which then frees the spare. */
  private void seal(Id id, byte[] spare, int len) {
    sealing.start();
    sealers.execute(
        () -> {
          try {
            writer.put(id, ChunkType.DATA, spare, 0, len);
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          } finally {
            spares.add(spare);
            sealing.done();
          }
        });
  }

  private void awaitSealing() throws IOException {
    try {
      sealing.awaitNone();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("backup interrupted");
    }
    rethrow();
  }

  private Node resolve(Object pending) throws IOException {
    if (pending instanceof Node n) {
      return n;
    }
    if (pending instanceof ForkJoinTask<?> task) {
      try {
        return (Node) task.join();
      } catch (RuntimeException e) {
        throw unwrap(e);
      }
    }
    try {
      Node n = ((Future<?>) pending).get() instanceof Node node ? node : null;
      rethrow();
      return n;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("backup interrupted");
    } catch (ExecutionException e) {
      rethrow();
      throw new IOException(e.getCause());
    }
  }

  private void rethrow() throws IOException {
    Throwable t = failure.get();
    if (t instanceof IOException io) {
      throw io;
    }
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t != null) {
      throw new IOException(t);
    }
  }

  /** What went wrong, for a warning: the message, or the kind of failure when it has none. */
  private static String reason(IOException e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** Warns about one entry, named as {@code ls} shows it. */
  private void warn(Path path, String problem) {
    warn(FileName.display(FileName.ofPath(path)) + ": " + problem);
  }

  /**
   * One listing of the packs, compared with the index: a pack that is missing or shorter than its
   * entries is visibly damaged, so this backup stores its chunks again rather than deduplicate onto
   * it (which would make the new snapshot as unrestorable as the old), and says so. Damage inside a
   * pack of the right length takes reading it: that is {@code stele repair}'s job.
   */
  private void distrustDamagedPacks(Index index) throws IOException {
    Map<String, String> damaged =
        new TreeMap<>(PackCheck.missingOrShort(index, PackCheck.listPacks(repo.store())));
    // A marked pack may be deleted by maintenance between our index and our listing, and is not
    // deduplicated onto anyway.
    damaged.keySet().removeAll(index.markedPacks());
    for (String problem : damaged.values()) {
      warn(problem + ": its chunks are stored again (run stele repair)");
    }
    index.distrust(damaged.keySet());
  }

  private void warn(String message) {
    synchronized (warnings) {
      warnings.add(message);
    }
    listener.warning(message);
  }

  private void acquire(Semaphore semaphore, int permits) throws IOException {
    try {
      while (!semaphore.tryAcquire(permits, 200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        rethrow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("backup interrupted");
    }
  }

  /** Runs the tree walk on the walker pool, where subdirectories can be forked. */
  private Id walk(java.util.concurrent.Callable<Id> rootWalk) throws IOException {
    try {
      return walkers.invoke(ForkJoinTask.adapt(rootWalk));
    } catch (RuntimeException e) {
      throw unwrap(e);
    }
  }

  /**
   * The IOException a forked task failed with: fork/join wraps checked exceptions in
   * RuntimeExceptions, once per level of joined tasks.
   */
  private static IOException unwrap(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io) {
        return io;
      }
    }
    throw e;
  }

  /** Names walkers {@code stele-walk-1}, {@code -2}, … (the pool index is not set yet here). */
  private static ForkJoinPool.ForkJoinWorkerThreadFactory walkerThreads() {
    AtomicInteger n = new AtomicInteger();
    return pool -> {
      ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
      t.setName("stele-walk-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private static ExecutorService executor(String name, int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, name + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  /** Counts tasks in flight and lets one thread wait until none are left. */
  private static final class InFlight {
    private int count;

    synchronized void start() {
      count++;
    }

    synchronized void done() {
      if (--count == 0) {
        notifyAll();
      }
    }

    synchronized void awaitNone() throws InterruptedException {
      while (count > 0) {
        wait();
      }
    }
  }

  /** The absolute source paths as a tree of path segments, by exact name. */
  static final class PathTrie {
    final Map<String, PathTrie> children = new TreeMap<>();
    final Path path;
    boolean isSource;

    PathTrie(Path path) {
      this.path = path;
    }

    void add(Path absolute) {
      PathTrie node = this;
      for (Path segment : absolute) {
        Path at = node.path.resolve(segment);
        node = node.children.computeIfAbsent(FileName.of(at), k -> new PathTrie(at));
      }
      node.isSource = true;
    }
  }
}
