package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.Json;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The body of a snapshot upload to a repository server (docs/server.md, "Creating snapshots"): what
 * {@link SnapshotUpload} writes on a client that has no key and {@link SnapshotReceive} reads on
 * the server that has it. Big-endian:
 *
 * <pre>
 * header length u32 | header JSON ({@link Header})
 * the root directory's record
 * 'Z' | warnings u32
 *
 * record: 'D' node | the directory's entries' records | 'E'     a directory
 *       | 'F' node | piece* | u32 0 | ('K' | 'C' node | 'X')   a file and its content
 *       | 'U' node                                             a file unchanged since the parent
 *       | 'O' node                                             a link, device, FIFO or socket
 * piece: length u32 (1..1 MiB) | bytes
 * node:  length u32 | a tree of that one node (docs/format.md §10), without chunks or subtree
 * </pre>
 *
 * A file's trailer says whether its node stands ('K'), was replaced because the file changed while
 * it was read ('C', with the node to record), or the file is dropped because it could not be read
 * to its end ('X'). Entries come in any order; the server sorts them as every tree is.
 */
public final class UploadStream {
  static final byte DIRECTORY = 'D';
  static final byte END = 'E';
  static final byte FILE = 'F';
  static final byte UNCHANGED = 'U';
  static final byte OTHER = 'O';
  static final byte DONE = 'Z';
  static final byte KEPT = 'K';
  static final byte CHANGED = 'C';
  static final byte DROPPED = 'X';
  static final int MAX_PIECE = 1 << 20;
  private static final int MAX_HEADER = 64 << 10;
  private static final int MAX_NODE = 256 << 10;
  private static final Id NO_SUBTREE = Id.of(new byte[Id.BYTES]);

  /** The media type of an upload's body. */
  public static final String MEDIA_TYPE = "application/x-stele-upload";

  private UploadStream() {}

  /**
   * What the snapshot will say about itself, sent before its content so that the server can check
   * it against the user's rules before it stores anything.
   *
   * @param host the host name to record
   * @param user the local user name to record
   * @param paths the sources, absolute and normalized, sorted, without duplicates
   * @param tags the snapshot's tags
   * @param labels the snapshot's labels
   * @param expires when it may be forgotten, or null
   * @param parent the id (hex) of the snapshot the client compared against, or null
   */
  public record Header(
      String host,
      String user,
      List<String> paths,
      List<String> tags,
      Map<String, String> labels,
      Instant expires,
      String parent) {
    public Header {
      paths = paths == null ? List.of() : List.copyOf(paths);
      tags = tags == null ? List.of() : List.copyOf(tags);
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
  }

  /** An upload that does not follow this format, or asks for what it may not have. */
  public static final class Malformed extends IOException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  static void writeHeader(DataOutputStream out, Header header) throws IOException {
    byte[] json = Json.write(header);
    out.writeInt(json.length);
    out.write(json);
  }

  /** Reads an upload's header, the first thing in its body. */
  public static Header readHeader(DataInputStream in) throws IOException {
    byte[] json = block(in, MAX_HEADER, "header");
    try {
      Header h = Json.MAPPER.readValue(json, Header.class);
      if (h == null || h.host() == null || h.user() == null) {
        throw new Malformed("upload header lacks host or user");
      }
      return h;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new Malformed("upload header does not parse: " + e.getOriginalMessage());
    }
  }

  static void writeNode(DataOutputStream out, Node n) throws IOException {
    Node bare =
        new Node(
            n.name(),
            n.kind(),
            n.mode(),
            n.uid(),
            n.gid(),
            n.mtimeNanos(),
            n.ctimeNanos(),
            n.device(),
            n.inode(),
            n.links(),
            n.size(),
            List.of(),
            n.isDirectory() ? NO_SUBTREE : null,
            n.target(),
            n.rdev());
    byte[] tree = new Tree(List.of(bare)).encode();
    out.writeInt(tree.length);
    out.write(tree);
  }

  static Node readNode(DataInputStream in) throws IOException {
    Node n = readRoot(in);
    String name = n.name();
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
      throw new Malformed("upload entry has an invalid name: " + FileName.display(name));
    }
    return n;
  }

  /** The root directory's node, the one without a name. */
  static Node readRoot(DataInputStream in) throws IOException {
    byte[] bytes = block(in, MAX_NODE, "entry");
    List<Node> nodes;
    try {
      nodes = Tree.decode(NO_SUBTREE, bytes).nodes();
    } catch (IOException e) {
      throw new Malformed("upload entry does not decode: " + e.getMessage());
    }
    if (nodes.size() != 1) {
      throw new Malformed("upload entry holds " + nodes.size() + " entries, not 1");
    }
    return nodes.get(0);
  }

  static byte tag(DataInputStream in) throws IOException {
    try {
      return in.readByte();
    } catch (EOFException e) {
      throw new Malformed("upload ended before its end");
    }
  }

  static int length(DataInputStream in, int max, String what) throws IOException {
    int n;
    try {
      n = in.readInt();
    } catch (EOFException e) {
      throw new Malformed("upload ended before its end");
    }
    if (n < 0 || n > max) {
      throw new Malformed("upload " + what + " of " + n + " bytes (at most " + max + ")");
    }
    return n;
  }

  private static byte[] block(DataInputStream in, int max, String what) throws IOException {
    byte[] b = new byte[length(in, max, what)];
    try {
      in.readFully(b);
    } catch (EOFException e) {
      throw new Malformed("upload ended before its end");
    }
    return b;
  }
}
