package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.crypto.Aead;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Decoders refuse what the format does not allow, with errors that name the blob. */
class FormatChecksTest {
  private static final String BLOB = "index/" + "ab".repeat(32);
  private static final String PACK = "packs/" + "cd".repeat(16);
  private static final Id CHUNK = Id.of(new byte[32]);

  @ParameterizedTest
  @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
  void formatVersionsBelowOneAreRefused(int version) {
    byte[] json =
        ("{\"magic\":\"stele-repository\",\"version\":" + version + "}")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> RepositoryFormat.parse(json))
        .isInstanceOf(NotARepositoryException.class)
        .hasMessageContaining("version " + version);
  }

  static PackEntry entry(int offset, int length, int rawLength) {
    return new PackEntry(CHUNK, ChunkType.DATA, offset, length, rawLength);
  }

  static byte[] index(PackEntry e) {
    ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 2 + PACK.length() + 4 + 45);
    out.put((byte) 1).putInt(0).putInt(1);
    out.putShort((short) PACK.length()).put(PACK.getBytes(StandardCharsets.US_ASCII)).putInt(1);
    IndexCodec.putEntry(out, e);
    return out.array();
  }

  @Test
  void aValidIndexEntryDecodes() throws Exception {
    PackEntry e = entry(8, Aead.OVERHEAD, 0);
    assertThat(IndexCodec.decode(BLOB, index(e)).packs()).containsEntry(PACK, List.of(e));
  }

  @ParameterizedTest
  @ValueSource(strings = {"7,60,10", "-5,60,10", "8,47,0", "8,-1,10", "8,60,-1", "2147483600,60,1"})
  void outOfBoundsIndexEntriesAreCorruption(String values) {
    int[] v = Arrays.stream(values.split(",")).mapToInt(Integer::parseInt).toArray();
    assertThatThrownBy(() -> IndexCodec.decode(BLOB, index(entry(v[0], v[1], v[2]))))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(BLOB)
        .hasMessageContaining("out of bounds");
  }

  @Test
  void hugeCountsInAnIndexAreCorruption() {
    byte[] payload = index(entry(8, 60, 10));
    ByteBuffer.wrap(payload).putInt(1, -1);
    assertThatThrownBy(() -> IndexCodec.decode(BLOB, payload))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(BLOB);
    byte[] entries = index(entry(8, 60, 10));
    ByteBuffer.wrap(entries).putInt(1 + 4 + 4 + 2 + PACK.length(), Integer.MAX_VALUE);
    assertThatThrownBy(() -> IndexCodec.decode(BLOB, entries))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(BLOB);
  }

  static byte[] footer(byte[] key, PackEntry e) {
    ByteBuffer table = ByteBuffer.allocate(4 + 45);
    table.putInt(1);
    IndexCodec.putEntry(table, e);
    return Aead.seal(key, PACK.getBytes(StandardCharsets.UTF_8), table.array());
  }

  @ParameterizedTest
  @ValueSource(strings = {"8,47,0", "8,-1,10", "8,60,-1", "7,60,10"})
  void outOfBoundsFooterEntriesAreCorruption(String values) {
    int[] v = Arrays.stream(values.split(",")).mapToInt(Integer::parseInt).toArray();
    byte[] key = new byte[32];
    byte[] sealed = footer(key, entry(v[0], v[1], v[2]));
    assertThatThrownBy(() -> Pack.readFooter(PACK, key, sealed, 1000))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(PACK);
  }

  @Test
  void aValidFooterEntryDecodes() throws Exception {
    byte[] key = new byte[32];
    PackEntry e = entry(8, 60, 0);
    assertThat(Pack.readFooter(PACK, key, footer(key, e), 68)).containsExactly(e);
  }

  @Test
  void indexEncodingSizesNamesInUtf8Bytes() throws Exception {
    String name = "packs/" + "é".repeat(16);
    Map<String, List<PackEntry>> packs = new LinkedHashMap<>();
    packs.put(name, List.of(entry(8, 60, 10)));
    byte[] payload = IndexCodec.encode(List.of(), packs);
    assertThat(IndexCodec.decode(BLOB, payload).packs()).isEqualTo(packs);
  }

  @Test
  void indexEncodingRefusesNamesTooLongForTheirLengthField() throws Exception {
    String name = "packs/" + "x".repeat(0xFFFF);
    Map<String, List<PackEntry>> packs = Map.of(name, List.of(entry(8, 60, 10)));
    assertThatThrownBy(() -> IndexCodec.encode(List.of(), packs))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("packs/xxxx")
        .hasMessageContaining("65541 UTF-8 bytes");
    // The longest name that fits still round-trips.
    String longest = "packs/" + "x".repeat(0xFFFF - 6);
    Map<String, List<PackEntry>> fits = Map.of(longest, List.of(entry(8, 60, 10)));
    assertThat(IndexCodec.decode(BLOB, IndexCodec.encode(List.of(), fits)).packs())
        .isEqualTo(fits)
        .hasSize(1);
  }

  @Test
  void versionedJsonRefusesNewerVersionsAndMissingOnes() throws Exception {
    String name = "snapshots/" + "ef".repeat(32);
    assertThatThrownBy(
            () ->
                JsonObject.versioned(
                    name, "{\"version\":2,\"x\":[1]}".getBytes(StandardCharsets.UTF_8), 1))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining(name)
        .hasMessageContaining("version 2")
        .hasMessageContaining("newer Stele");
    for (String json :
        List.of(
            "{\"version\":0}",
            "{}",
            "{\"version\":\"one\"}",
            "{\"a\":{\"version\":1}}",
            "[1]",
            "nope")) {
      assertThatThrownBy(() -> JsonObject.versioned(name, json.getBytes(StandardCharsets.UTF_8), 1))
          .as(json)
          .isInstanceOf(CorruptBlobException.class)
          .hasMessageContaining(name);
    }
    JsonObject read =
        JsonObject.versioned(name, "{\"version\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8), 1);
    assertThat(read.integer("a")).isEqualTo(2);
    // The version need not come first; a nested "version" is not the blob's.
    JsonObject later =
        JsonObject.versioned(
            name,
            "{\"a\":{\"version\":9},\"b\":[{}],\"version\":1}".getBytes(StandardCharsets.UTF_8),
            1);
    assertThat(later.integer("version")).isEqualTo(1);
  }
}
