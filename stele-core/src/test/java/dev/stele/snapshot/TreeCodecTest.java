package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.Id;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tree decoding refuses anything but an exact tree; encoding refuses what it cannot record. */
class TreeCodecTest {
  private static final Id TREE = Id.of(new byte[32]);
  private static final Id OTHER = Id.of(filled(7));

  static byte[] filled(int b) {
    byte[] bytes = new byte[32];
    Arrays.fill(bytes, (byte) b);
    return bytes;
  }

  static Node node(String name, Node.Kind kind, List<Id> chunks, Id subtree, String target) {
    return new Node(name, kind, 0644, 1, 2, 3L, 4L, 5L, 6L, 1, 0L, chunks, subtree, target);
  }

  static Tree sample() {
    return new Tree(
        List.of(
            node("a", Node.Kind.FILE, List.of(OTHER, OTHER), null, null),
            node("b", Node.Kind.SYMLINK, null, null, "a"),
            node("c", Node.Kind.DIRECTORY, null, OTHER, null)));
  }

  @Test
  void roundTrips() throws Exception {
    byte[] bytes = sample().encode();
    assertThat(Tree.decode(TREE, bytes)).isEqualTo(sample());
  }

  @Test
  void specialFilesAndByteNamesRoundTrip() throws Exception {
    String invalid = FileName.decode(new byte[] {'x', (byte) 0xff});
    Tree tree =
        new Tree(
            List.of(
                node("fifo", Node.Kind.FIFO, null, null, null),
                node("sock", Node.Kind.SOCKET, null, null, null),
                new Node(
                    "tty",
                    Node.Kind.CHAR_DEVICE,
                    0620,
                    0,
                    5,
                    3L,
                    4L,
                    5L,
                    6L,
                    1,
                    0L,
                    null,
                    null,
                    null,
                    (4L << 8) | 1),
                new Node(
                    "sda",
                    Node.Kind.BLOCK_DEVICE,
                    0660,
                    0,
                    6,
                    3L,
                    4L,
                    5L,
                    6L,
                    1,
                    0L,
                    null,
                    null,
                    null,
                    8L << 8),
                node(invalid, Node.Kind.SYMLINK, null, null, invalid)));
    Tree decoded = Tree.decode(TREE, tree.encode());
    assertThat(decoded).isEqualTo(tree);
    assertThat(decoded.find("tty").rdev()).isEqualTo((4L << 8) | 1);
    assertThat(FileName.encode(decoded.find(invalid).target()))
        .isEqualTo(new byte[] {'x', (byte) 0xff});
  }

  @Test
  void trailingBytesAreCorruption() {
    byte[] bytes = sample().encode();
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> Tree.decode(TREE, longer))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining("tree " + TREE.hex())
        .hasMessageContaining("trailing");
  }

  @Test
  void everyTruncationIsCorruption() {
    byte[] bytes = sample().encode();
    for (int n = 0; n < bytes.length; n++) {
      byte[] cut = Arrays.copyOf(bytes, n);
      assertThatThrownBy(() -> Tree.decode(TREE, cut))
          .as("truncated to %d bytes", n)
          .isInstanceOf(CorruptBlobException.class);
    }
  }

  @Test
  void unknownKindsAreCorruption() {
    byte[] bytes = new Tree(List.of(node("a", Node.Kind.SYMLINK, null, null, "t"))).encode();
    // version u8, count u32, name length u16, name "a", then the kind
    for (byte kind : new byte[] {7, 127, -1}) {
      bytes[1 + 4 + 2 + 1] = kind;
      assertThatThrownBy(() -> Tree.decode(TREE, bytes))
          .isInstanceOf(CorruptBlobException.class)
          .hasMessageContaining("unknown node kind " + kind);
    }
  }

  @Test
  void negativeCountsAreCorruption() {
    byte[] bytes = sample().encode();
    bytes[1] = (byte) 0x80;
    assertThatThrownBy(() -> Tree.decode(TREE, bytes)).isInstanceOf(CorruptBlobException.class);
    byte[] chunks =
        new Tree(List.of(node("a", Node.Kind.FILE, List.of(OTHER), null, null))).encode();
    // the chunk count follows the 65-byte fixed part of node "a"
    int at = 1 + 4 + 2 + 1 + 1 + 12 + 32 + 4 + 8;
    chunks[at] = (byte) 0xFF;
    assertThatThrownBy(() -> Tree.decode(TREE, chunks)).isInstanceOf(CorruptBlobException.class);
  }

  @Test
  void namesAndTargetsTooLongForTheirLengthFieldAreRefused() {
    String longName = "n".repeat(0x10000);
    assertThatThrownBy(
            () -> new Tree(List.of(node(longName, Node.Kind.FILE, null, null, null))).encode())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nnnnnnnn")
        .hasMessageContaining("65536 bytes");
    // 2-byte characters: 32768 chars are 65536 bytes, though String.length() is only 32768
    String longTarget = "é".repeat(0x8000);
    assertThatThrownBy(
            () ->
                new Tree(List.of(node("link", Node.Kind.SYMLINK, null, null, longTarget))).encode())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("symlink target of link");
  }

  @Test
  void theLongestNameThatFitsRoundTrips() throws Exception {
    Tree tree =
        new Tree(
            List.of(node("n".repeat(0xFFFF), Node.Kind.SYMLINK, null, null, "é".repeat(0x7FFF))));
    assertThat(Tree.decode(TREE, tree.encode())).isEqualTo(tree);
  }
}
