package dev.stele.snapshot;

import dev.stele.repo.Id;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The client's half of a snapshot made through a repository server, which holds the key: walks the
 * sources as {@link FileBackup} does (the same synthetic root, excludes, warnings and
 * unchanged-file rule) and writes them as an {@link UploadStream}. A file unchanged since the
 * parent snapshot — whose trees the client reads through the server — goes as its metadata alone;
 * the server checks that claim against the parent itself. Only changed files' bytes are sent;
 * chunking, deduplication, sealing and the trees are the server's ({@link SnapshotReceive}).
 *
 * <p>Concurrency: one instance writes one upload, on the calling thread.
 */
public final class SnapshotUpload {
  private static final int READ_BUFFER = 256 << 10;

  private final SnapshotBrowser.ObjectSource parentTrees;
  private final Excludes excludes;
  private final FileBackupListener listener;
  private final List<String> warnings = new ArrayList<>();
  private final ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER);
  private DataOutputStream out;

  /**
   * @param parentTrees where the parent snapshot's trees are read (the server's tree endpoint)
   * @param excludes globs of entries to skip, as {@code snapshot create --exclude}
   */
  public SnapshotUpload(
      SnapshotBrowser.ObjectSource parentTrees,
      List<String> excludes,
      FileBackupListener listener) {
    this.parentTrees = parentTrees;
    this.excludes = new Excludes(excludes);
    this.listener = listener;
  }

  /**
   * Writes the upload of {@code sources} to {@code body}, compared against the parent whose root
   * tree is {@code parentRoot} (null for none). Does not close {@code body}.
   *
   * @return the warnings, as a direct backup would give them
   */
  public List<String> write(
      List<Path> sources, UploadStream.Header header, Id parentRoot, OutputStream body)
      throws IOException {
    List<Path> absolute = FileBackup.sourcePaths(sources).stream().map(Path::of).toList();
    for (Path p : absolute) {
      if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        throw new NoSuchFileException(p.toString(), null, "source does not exist");
      }
    }
    out = new DataOutputStream(new BufferedOutputStream(body, 64 << 10));
    UploadStream.writeHeader(out, header);
    FileBackup.PathTrie trie = new FileBackup.PathTrie(Path.of("/"));
    absolute.forEach(trie::add);
    Tree parent = parentRoot == null ? null : tree(parentRoot);
    Node root = FileStat.of(trie.path).toNode("", Node.Kind.DIRECTORY);
    if (trie.isSource) {
      directory(trie.path, root, parent);
    } else {
      trieLevel(trie, root, parent);
    }
    out.writeByte(UploadStream.DONE);
    out.writeInt(warnings.size());
    out.flush();
    return List.copyOf(warnings);
  }

  private void trieLevel(FileBackup.PathTrie trie, Node self, Tree parent) throws IOException {
    record(UploadStream.DIRECTORY, self);
    for (var child : trie.children.entrySet()) {
      String name = child.getKey();
      Path path = child.getValue().path;
      Node parentNode = parent == null ? null : parent.find(name);
      if (child.getValue().isSource) {
        visit(path, name, parentNode);
      } else {
        Node dir = FileStat.of(path).toNode(name, Node.Kind.DIRECTORY);
        trieLevel(child.getValue(), dir, subtree(parentNode));
      }
    }
    out.writeByte(UploadStream.END);
  }

  private void visit(Path path, String name, Node parentNode) throws IOException {
    if (excludes.matches(path, name)) {
      return;
    }
    FileStat stat;
    try {
      stat = FileStat.of(path);
    } catch (NoSuchFileException e) {
      warn(path, "vanished during backup");
      return;
    } catch (IOException e) {
      warn(path, "cannot read attributes (" + reason(e) + ")");
      return;
    }
    Node.Kind kind = stat.kind();
    if (kind == null) {
      warn(path, "unknown file type " + Integer.toOctalString(stat.type()) + ", skipped");
      return;
    }
    Node node = stat.toNode(name, kind);
    switch (kind) {
      case DIRECTORY -> directory(path, node, subtree(parentNode));
      case SYMLINK ->
          record(
              UploadStream.OTHER, node.withTarget(FileName.ofPath(Files.readSymbolicLink(path))));
      case FIFO, SOCKET, CHAR_DEVICE, BLOCK_DEVICE -> record(UploadStream.OTHER, node);
      case FILE -> file(path, stat, node, parentNode);
    }
  }

  private void directory(Path dir, Node node, Tree parent) throws IOException {
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = list.sorted().toList();
    } catch (IOException e) {
      warn(dir, "cannot list (" + e.getMessage() + ")");
      children = List.of();
    }
    record(UploadStream.DIRECTORY, node);
    for (Path child : children) {
      String name = FileName.of(child);
      visit(child, name, parent == null ? null : parent.find(name));
    }
    out.writeByte(UploadStream.END);
  }

  private void file(Path path, FileStat stat, Node node, Node parentNode) throws IOException {
    if (node.unchangedFrom(parentNode)) {
      record(UploadStream.UNCHANGED, node);
      listener.fileDone(path, stat.size(), true);
      return;
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      warn(path, "cannot read (" + reason(e) + ")");
      return;
    }
    record(UploadStream.FILE, node);
    long read = 0;
    try (channel) {
      for (int n; (n = channel.read(buffer.clear())) >= 0; ) {
        if (n > 0) {
          out.writeInt(n);
          out.write(buffer.array(), 0, n);
          read += n;
          listener.bytesRead(n);
        }
      }
    } catch (IOException e) {
      out.writeInt(0);
      out.writeByte(UploadStream.DROPPED);
      warn(path, "cannot read (" + reason(e) + ")");
      return;
    }
    out.writeInt(0);
    listener.fileDone(path, read, false);
    if (read == stat.size() && !changedSince(path, stat)) {
      out.writeByte(UploadStream.KEPT);
      return;
    }
    out.writeByte(UploadStream.CHANGED);
    UploadStream.writeNode(out, stat.changedWhileRead(read).toNode(node.name(), Node.Kind.FILE));
    warn(
        path,
        "changed while it was read; recorded the "
            + read
            + " bytes read (the next backup reads it again)");
  }

  private static boolean changedSince(Path path, FileStat before) {
    try {
      return FileStat.of(path).changedSince(before);
    } catch (IOException e) {
      return true;
    }
  }

  private void record(byte tag, Node node) throws IOException {
    out.writeByte(tag);
    UploadStream.writeNode(out, node);
  }

  private Tree subtree(Node parentNode) throws IOException {
    return parentNode == null || !parentNode.isDirectory() ? null : tree(parentNode.subtree());
  }

  private Tree tree(Id id) throws IOException {
    return Tree.decode(id, parentTrees.tree(id));
  }

  private static String reason(IOException e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  private void warn(Path path, String problem) {
    String message = FileName.display(FileName.ofPath(path)) + ": " + problem;
    warnings.add(message);
    listener.warning(message);
  }
}
