package dev.stele.snapshot;

import dev.stele.chunk.ChunkStream;
import dev.stele.chunk.ChunkerParams;
import dev.stele.chunk.FastCdc;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's half of a snapshot made through a repository server: reads an {@link UploadStream}
 * from a client without the key, and stores it with the engine a direct backup uses — the
 * repository's chunker, the {@link ChunkWriter} that deduplicates, compresses, seals and packs, and
 * the {@link SnapshotWriter} that commits. Trees are built here, as entries arrive; a file the
 * client calls unchanged takes its chunks from the parent snapshot's entry of the same path, and
 * only if that entry is unchanged by the same rule a direct backup applies.
 *
 * <p>Nothing is staged: content is chunked as it streams in, and what is held is one chunking
 * buffer, the packs being filled, and the entries of the directories open on the way down. The
 * manifest is written only after the upload's last record; an upload that ends before it, or breaks
 * the format, leaves packs no snapshot names, which maintenance reclaims.
 *
 * <p>Every entry must lie inside the header's paths (a source, under one, or a directory on the way
 * to one), so that the snapshot holds nothing beyond what the paths its rules were checked against
 * say.
 *
 * <p>Concurrency: one instance receives one upload; several may run at once on one repository.
 */
public final class SnapshotReceive {
  private static final int MAX_DEPTH = 2048;

  private final Repository repo;
  private final ChunkStream chunks;
  private final SnapshotBrowser parents;
  private ChunkWriter writer;
  private List<String> sources = List.of();
  private long files;
  private long filesNew;
  private long dirs;
  private long bytes;
  private long received;

  public SnapshotReceive(Repository repo) {
    this.repo = repo;
    var format = repo.format().chunker();
    this.chunks =
        new ChunkStream(
            new FastCdc(
                new ChunkerParams(format.minSize(), format.avgSize(), format.maxSize()),
                repo.gearTable()));
    this.parents = new SnapshotBrowser(repo);
  }

  /** The snapshot stored, and the file content bytes the upload carried. */
  public record Received(SnapshotCatalog.Entry snapshot, long contentBytes) {}

  /**
   * Stores the upload whose header has been read from {@code in}, and commits its snapshot.
   *
   * @param parent the snapshot the client compared against, already checked to be one the user may
   *     read with the header's host and paths; null for none
   * @throws UploadStream.Malformed if the upload breaks the format, ends early, holds an entry
   *     outside its paths, or calls a file unchanged that is not
   */
  public Received receive(
      UploadStream.Header header, SnapshotCatalog.Entry parent, InputStream body)
      throws IOException {
    sources = header.paths();
    Instant started = repo.clock().instant();
    long t0 = System.nanoTime();
    DataInputStream in = new DataInputStream(body);
    try (SnapshotWriter snapshot = SnapshotWriter.start(repo, 2, started, header.expires())) {
      writer = snapshot.chunks();
      ParentTree parentRoot =
          parent == null ? null : ParentTree.of(repo, parents.root(parent.manifest()));
      expect(in, UploadStream.DIRECTORY);
      UploadStream.readRoot(in);
      Id root = directory(in, "/", parentRoot, 0);
      expect(in, UploadStream.DONE);
      int warnings = UploadStream.length(in, Integer.MAX_VALUE, "warning count");
      if (in.read() != -1) {
        throw new UploadStream.Malformed("upload goes on past its end");
      }
      SnapshotCatalog.Entry written =
          snapshot.commit(
              c ->
                  new SnapshotManifest(
                      SnapshotManifest.VERSION,
                      started,
                      header.host(),
                      header.user(),
                      header.paths(),
                      header.tags(),
                      parent == null ? null : parent.id().hex(),
                      root.hex(),
                      header.expires(),
                      new SnapshotManifest.Stats(
                          files,
                          dirs,
                          bytes,
                          filesNew,
                          c.chunksStored(),
                          c.bytesNew(),
                          c.bytesStored(),
                          warnings,
                          (System.nanoTime() - t0) / 1e9),
                      header.labels()));
      return new Received(written, received);
    }
  }

  /** Reads a directory's records up to its end; stores its tree and returns the tree's id. */
  private Id directory(DataInputStream in, String path, ParentTree parent, int depth)
      throws IOException {
    if (depth > MAX_DEPTH) {
      throw new UploadStream.Malformed("upload nests directories deeper than " + MAX_DEPTH);
    }
    if (inside(path)) {
      dirs++;
    }
    List<Node> nodes = new ArrayList<>();
    for (byte tag; (tag = UploadStream.tag(in)) != UploadStream.END; ) {
      Node node = UploadStream.readNode(in);
      String at = path.equals("/") ? "/" + node.name() : path + "/" + node.name();
      if (!inside(at) && !(tag == UploadStream.DIRECTORY && onTheWay(at))) {
        throw new UploadStream.Malformed(
            "upload entry " + FileName.display(at) + " lies outside the snapshot's paths");
      }
      Node parentNode = parent == null ? null : parent.tree().find(node.name());
      Node stored =
          switch (tag) {
            case UploadStream.DIRECTORY -> {
              if (!node.isDirectory()) {
                throw new UploadStream.Malformed("upload directory record for a non-directory");
              }
              yield node.withSubtree(directory(in, at, ParentTree.of(repo, parentNode), depth + 1));
            }
            case UploadStream.FILE -> file(in, node, at);
            case UploadStream.UNCHANGED -> unchanged(node, parentNode, at);
            case UploadStream.OTHER -> {
              if (node.isFile() || node.isDirectory()) {
                throw new UploadStream.Malformed("upload record of another kind for a file");
              }
              files++;
              yield node;
            }
            default -> throw new UploadStream.Malformed("upload record of unknown type " + tag);
          };
      if (stored != null) {
        nodes.add(stored);
      }
    }
    Tree tree = new Tree(nodes);
    for (int i = 1; i < tree.nodes().size(); i++) {
      if (tree.nodes().get(i).name().equals(tree.nodes().get(i - 1).name())) {
        throw new UploadStream.Malformed(
            "upload names "
                + FileName.display(path)
                + "'s entry twice: "
                + FileName.display(tree.nodes().get(i).name()));
      }
    }
    if (parent != null && parent.tree().equals(tree) && writer.reuse(List.of(parent.id()))) {
      return parent.id();
    }
    return writer.store(ChunkType.TREE, tree.encode());
  }

  /** A changed file: its content chunked and stored as it streams in. */
  private Node file(DataInputStream in, Node node, String at) throws IOException {
    if (!node.isFile()) {
      throw new UploadStream.Malformed("upload file record for a non-file");
    }
    files++;
    filesNew++;
    List<Id> ids = new ArrayList<>();
    long read =
        chunks.chunk(
            new Pieces(in),
            (buf, off, len) -> {
              Id id = repo.chunkId(buf, off, len);
              ids.add(id);
              if (writer.claim(id)) {
                writer.put(id, ChunkType.DATA, buf, off, len);
              }
            });
    received += read;
    byte trailer = UploadStream.tag(in);
    Node recorded =
        switch (trailer) {
          case UploadStream.KEPT -> node;
          case UploadStream.CHANGED -> UploadStream.readNode(in);
          case UploadStream.DROPPED -> null;
          default -> throw new UploadStream.Malformed("upload file trailer of unknown type");
        };
    if (recorded == null) {
      return null;
    }
    if (!recorded.isFile() || !recorded.name().equals(node.name()) || recorded.size() != read) {
      throw new UploadStream.Malformed(
          "upload file " + FileName.display(at) + " does not have the size its content has");
    }
    bytes += read;
    return recorded.withChunks(ids);
  }

  /** A file the client calls unchanged: the parent's chunks, if the parent agrees. */
  private Node unchanged(Node node, Node parentNode, String at) throws IOException {
    if (!node.isFile() || !node.unchangedFrom(parentNode) || !writer.reuse(parentNode.chunks())) {
      throw new UploadStream.Malformed(
          "upload calls "
              + FileName.display(at)
              + " unchanged, but the parent snapshot has no such copy of it");
    }
    files++;
    bytes += node.size();
    return node.withChunks(parentNode.chunks());
  }

  /** True if {@code path} is a source or lies under one. */
  private boolean inside(String path) {
    for (String s : sources) {
      if (path.equals(s) || path.startsWith(s.endsWith("/") ? s : s + "/")) {
        return true;
      }
    }
    return false;
  }

  /** True if {@code path} is a directory on the way down to a source. */
  private boolean onTheWay(String path) {
    return sources.stream().anyMatch(s -> s.startsWith(path + "/"));
  }

  private void expect(DataInputStream in, byte tag) throws IOException {
    byte got = UploadStream.tag(in);
    if (got != tag) {
      throw new UploadStream.Malformed(
          "upload has record type " + (char) got + " where " + (char) tag + " belongs");
    }
  }

  /** A file's content pieces as one stream, ending at the zero-length piece. */
  private static final class Pieces extends InputStream {
    private final DataInputStream in;
    private int left;
    private boolean ended;

    Pieces(DataInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (ended) {
        return -1;
      }
      if (left == 0) {
        left = UploadStream.length(in, UploadStream.MAX_PIECE, "piece");
        if (left == 0) {
          ended = true;
          return -1;
        }
      }
      int n = in.read(b, off, Math.min(len, left));
      if (n < 0) {
        throw new UploadStream.Malformed("upload ended before its end");
      }
      left -= n;
      return n;
    }
  }
}
