package dev.stele.snapshot;

import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.Id;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A directory's entries, sorted by name (Java string order: UTF-16 code units), stored as a chunk
 * of type TREE. Equal directories encode to equal bytes, so an unchanged subtree is stored once.
 *
 * <p>Layout, big-endian:
 *
 * <pre>
 * version u8 = 1 | count u32 | count × node
 * node: name length u16 | name bytes | kind u8 | mode u32 | uid u32 | gid u32 | mtime i64 ns
 *       | ctime i64 ns | device i64 | inode i64 | links u32 | size i64
 *       | file (0): chunk count u32, count × id[32]
 *       | dir (1): subtree id[32]
 *       | symlink (2): target length u16 | target bytes
 *       | fifo (3), socket (4): nothing
 *       | char device (5), block device (6): rdev i64
 * </pre>
 *
 * <p>Names and targets are the exact bytes the kernel gave (UTF-8 where they are valid); in a
 * {@link Node} they are {@link FileName} strings.
 */
public record Tree(List<Node> nodes) {
  private static final Comparator<Node> BY_NAME = Comparator.comparing(Node::name);

  public Tree {
    nodes = nodes.stream().sorted(BY_NAME).toList();
  }

  /** The entry called {@code name}, or null. Binary search: nodes are sorted by name. */
  public Node find(String name) {
    int lo = 0;
    int hi = nodes.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = nodes.get(mid).name().compareTo(name);
      if (c == 0) {
        return nodes.get(mid);
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return null;
  }

  /** Longest name or symlink target, in bytes, that the u16 length fields can record. */
  static final int MAX_STRING_BYTES = 0xFFFF;

  /**
   * Encodes the tree.
   *
   * @throws IllegalArgumentException if a name or symlink target is longer than {@value
   *     #MAX_STRING_BYTES} bytes (the format's u16 length fields cannot record it)
   */
  public byte[] encode() {
    int size = 5;
    List<byte[]> names = new ArrayList<>(nodes.size());
    List<byte[]> targets = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      byte[] name = FileName.encode(n.name());
      byte[] target = n.target() == null ? new byte[0] : FileName.encode(n.target());
      checkLength("name", n.name(), name);
      checkLength("symlink target of " + n.name(), n.target(), target);
      names.add(name);
      targets.add(target);
      size += 2 + name.length + 1 + 12 + 32 + 4 + 8;
      size +=
          switch (n.kind()) {
            case FILE -> 4 + n.chunks().size() * Id.BYTES;
            case DIRECTORY -> Id.BYTES;
            case SYMLINK -> 2 + target.length;
            case FIFO, SOCKET -> 0;
            case CHAR_DEVICE, BLOCK_DEVICE -> 8;
          };
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put((byte) 1).putInt(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      out.putShort((short) names.get(i).length).put(names.get(i));
      out.put(n.kind().code()).putInt(n.mode()).putInt(n.uid()).putInt(n.gid());
      out.putLong(n.mtimeNanos()).putLong(n.ctimeNanos()).putLong(n.device()).putLong(n.inode());
      out.putInt(n.links()).putLong(n.size());
      switch (n.kind()) {
        case FILE -> {
          out.putInt(n.chunks().size());
          n.chunks().forEach(id -> out.put(id.bytes()));
        }
        case DIRECTORY -> out.put(n.subtree().bytes());
        case SYMLINK -> out.putShort((short) targets.get(i).length).put(targets.get(i));
        case FIFO, SOCKET -> {}
        case CHAR_DEVICE, BLOCK_DEVICE -> out.putLong(n.rdev());
      }
    }
    return out.array();
  }

  public static Tree decode(Id id, byte[] bytes) throws IOException {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      if (in.get() != 1) {
        throw new CorruptBlobException("tree " + id.hex(), "unknown tree version");
      }
      int count = in.getInt();
      if (count < 0) {
        throw new CorruptBlobException("tree " + id.hex(), "negative node count");
      }
      List<Node> nodes = new ArrayList<>(Math.min(count, in.remaining() / MIN_NODE_BYTES));
      for (int i = 0; i < count; i++) {
        String name = string(in);
        byte kindCode = in.get();
        Node.Kind kind = Node.Kind.of(kindCode);
        if (kind == null) {
          throw new CorruptBlobException(
              "tree " + id.hex(), "unknown node kind " + kindCode + " for " + name);
        }
        int mode = in.getInt();
        int uid = in.getInt();
        int gid = in.getInt();
        long mtime = in.getLong();
        long ctime = in.getLong();
        long device = in.getLong();
        long inode = in.getLong();
        int links = in.getInt();
        long size = in.getLong();
        List<Id> chunks = List.of();
        Id subtree = null;
        String target = null;
        long rdev = 0;
        switch (kind) {
          case FILE -> {
            int n = in.getInt();
            if (n < 0 || n > in.remaining() / Id.BYTES) {
              throw new CorruptBlobException(
                  "tree " + id.hex(), "chunk count " + n + " of " + name + " out of bounds");
            }
            Id[] ids = new Id[n];
            for (int c = 0; c < n; c++) {
              ids[c] = readId(in);
            }
            chunks = Arrays.asList(ids);
          }
          case DIRECTORY -> subtree = readId(in);
          case SYMLINK -> target = string(in);
          case FIFO, SOCKET -> {}
          case CHAR_DEVICE, BLOCK_DEVICE -> rdev = in.getLong();
        }
        nodes.add(
            new Node(
                name, kind, mode, uid, gid, mtime, ctime, device, inode, links, size, chunks,
                subtree, target, rdev));
      }
      if (in.hasRemaining()) {
        throw new CorruptBlobException(
            "tree " + id.hex(), in.remaining() + " trailing bytes after the last node");
      }
      return new Tree(nodes);
    } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new CorruptBlobException("tree " + id.hex(), "malformed tree", e);
    }
  }

  /** Bytes of the smallest node: empty name, no chunks, empty target. */
  private static final int MIN_NODE_BYTES = 2 + 1 + 12 + 32 + 4 + 8 + 2;

  private static void checkLength(String what, String value, byte[] bytes) {
    if (bytes.length > MAX_STRING_BYTES) {
      throw new IllegalArgumentException(
          what
              + " is "
              + bytes.length
              + " bytes, longer than a tree can record ("
              + MAX_STRING_BYTES
              + "): "
              + FileName.display(value.substring(0, Math.min(value.length(), 80)))
              + "…");
    }
  }

  private static Id readId(ByteBuffer in) {
    byte[] b = new byte[Id.BYTES];
    in.get(b);
    return Id.of(b);
  }

  private static String string(ByteBuffer in) {
    byte[] b = new byte[Short.toUnsignedInt(in.getShort())];
    in.get(b);
    return FileName.decode(b);
  }
}
