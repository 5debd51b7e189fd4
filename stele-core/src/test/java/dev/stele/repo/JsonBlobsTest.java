package dev.stele.repo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.Retention;
import dev.stele.crypto.KdfParams;
import dev.stele.crypto.MasterKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The blobs every open and listing reads are coded field by field ({@link JsonObject}, {@link
 * JsonWriter}); the mapper ({@link Json#MAPPER}) wrote and read them before. Each is checked both
 * ways against the mapper, so that what older Stele wrote still reads and what this one writes
 * still reads in older Stele; {@code FormatV1FixtureTest} reads the stored v1 repository besides.
 */
class JsonBlobsTest {
  private static final String SNAPSHOT = "snapshots/" + "ab".repeat(32);
  private static final Instant TIME = Instant.parse("2030-01-02T03:04:05.123456789Z");

  private static SnapshotManifest manifest(String parent, Instant expires) {
    return new SnapshotManifest(
        1,
        TIME,
        "host-a",
        "someone",
        List.of("/data", "/etc/a \"quoted\" ü"),
        List.of("daily"),
        parent,
        "cd".repeat(32),
        expires,
        new SnapshotManifest.Stats(5, 3, 5334, 1, 5, 1210, 1047, 0, 0.03626871),
        Map.of("purpose", "test"));
  }

  @Test
  void aManifestIsWrittenAsTheMapperWroteItAndReadEitherWay() throws Exception {
    for (SnapshotManifest m :
        List.of(manifest("ef".repeat(32), TIME.plus(Duration.ofDays(30))), manifest(null, null))) {
      byte[] written = m.toJson();
      assertThat(new String(written, UTF_8)).isEqualTo(new String(Json.write(m), UTF_8));
      assertThat(SnapshotManifest.parse(SNAPSHOT, written)).isEqualTo(m);
      assertThat(SnapshotManifest.parse(SNAPSHOT, Json.write(m))).isEqualTo(m);
      assertThat(Json.MAPPER.readValue(written, SnapshotManifest.class)).isEqualTo(m);
    }
    assertThat(new String(manifest(null, null).toJson(), UTF_8))
        .doesNotContain("parent")
        .doesNotContain("expires")
        .contains("\"tags\":[\"daily\"]");
  }

  @Test
  void aManifestReadsInAnyOrderWithUnknownFieldsAndDefaults() throws Exception {
    SnapshotManifest m =
        SnapshotManifest.parse(
            SNAPSHOT,
            ("{\"future\":{\"x\":[1,2.5,null,true]},\"tree\":\"t\",\"paths\":[\"/a\"],"
                    + "\"time\":\"2030-01-01T00:00:00Z\",\"version\":1,\"host\":\"h\","
                    + "\"stats\":{\"files\":7,\"seconds\":2}}")
                .getBytes(UTF_8));
    assertThat(m.tree()).isEqualTo("t");
    assertThat(m.paths()).containsExactly("/a");
    assertThat(m.tags()).isEmpty();
    assertThat(m.labels()).isEmpty();
    assertThat(m.parent()).isNull();
    assertThat(m.stats().files()).isEqualTo(7);
    assertThat(m.stats().seconds()).isEqualTo(2.0);
    assertThat(m.stats().bytes()).isZero();
  }

  @Test
  void aMalformedManifestIsCorruptAndNamed() {
    for (String json :
        List.of(
            "{\"version\":1,\"time\":5,\"paths\":[]}",
            "{\"version\":1,\"time\":\"yesterday\",\"paths\":[]}",
            "{\"version\":1,\"paths\":[1]}",
            "{\"version\":1,\"paths\":[],\"labels\":{\"a\":1}}",
            "{\"version\":1,\"paths\":[],\"stats\":{\"files\":1.5}}",
            "{\"version\":1,\"paths\":[]} {}",
            "{\"version\":1,\"paths\":[]")) {
      assertThatThrownBy(() -> SnapshotManifest.parse(SNAPSHOT, json.getBytes(UTF_8)))
          .as(json)
          .isInstanceOf(CorruptBlobException.class)
          .hasMessageContaining(SNAPSHOT);
    }
    assertThatThrownBy(
            () -> SnapshotManifest.parse(SNAPSHOT, "{\"version\":2,\"new\":{}}".getBytes(UTF_8)))
        .isInstanceOf(UnsupportedVersionException.class);
  }

  @Test
  void theFormatBlobIsWrittenAsTheMapperWroteIt() throws Exception {
    RepositoryFormat plain =
        RepositoryInit.defaults(Clock.fixed(TIME, ZoneOffset.UTC)).format("0".repeat(32), TIME);
    RepositoryFormat locked =
        new RepositoryFormat(
            plain.magic(),
            plain.version(),
            plain.id(),
            plain.created(),
            plain.chunker(),
            plain.compressionLevel(),
            plain.packSize(),
            plain.markWindow(),
            plain.sweepWindow(),
            Retention.Mode.COMPLIANCE,
            Duration.ofDays(7));
    for (RepositoryFormat format : List.of(plain, locked)) {
      byte[] written = format.toBytes();
      assertThat(written).isEqualTo(Json.write(format));
      assertThat(RepositoryFormat.parse(written)).isEqualTo(format);
      assertThat(Json.MAPPER.readValue(written, RepositoryFormat.class)).isEqualTo(format);
    }
    assertThatThrownBy(
            () ->
                RepositoryFormat.parse(
                    new String(plain.toBytes(), UTF_8)
                        .replace("\"NONE\"", "\"FOREVER\"")
                        .getBytes(UTF_8)))
        .isInstanceOf(NotARepositoryException.class);
  }

  @Test
  void aKeyBlobOpensAndDescribesAsTheMapperReadsIt() throws Exception {
    MasterKey key = new MasterKey(new byte[32]);
    Id formatHash = Sha256.of("format".getBytes(UTF_8));
    KdfParams kdf = KdfParams.argon2id(64, 1, "salt-of-16-bytes".getBytes(UTF_8));
    char[] password = "pw".toCharArray();
    byte[] blob = KeyBlob.seal(key, formatHash, password, kdf, TIME, "host-a");
    String name = KeyBlob.PREFIX + Sha256.of(blob).hex();

    KeyBlob.Opened opened = KeyBlob.open(name, blob, password);
    assertThat(opened.key().secret()).isEqualTo(key.secret());
    assertThat(opened.formatHash()).isEqualTo(formatHash);
    KeyBlob.Stored described = KeyBlob.describe(name, blob);
    assertThat(described.kdf()).isEqualTo(kdf);
    assertThat(described.created()).isEqualTo(TIME);
    KeyBlob.Stored mapped = Json.MAPPER.readValue(blob, KeyBlob.Stored.class);
    assertThat(mapped.kdf()).isEqualTo(kdf);
    assertThat(mapped.sealed()).isEqualTo(described.sealed());
    assertThat(KeyBlob.open(name, blob, "other".toCharArray())).isNull();
    byte[] saltless =
        new String(blob, UTF_8).replaceAll(",\"salt\":\"[^\"]*\"", "").getBytes(UTF_8);
    assertThatThrownBy(() -> KeyBlob.describe(name, saltless))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(name)
        .hasRootCauseMessage("corrupted blob " + name + ": no field kdf.salt");
  }

  @Test
  void aMaintenanceRecordIsWrittenAsTheMapperWroteIt() throws Exception {
    MaintenanceRecord r =
        new MaintenanceRecord(
            1,
            TIME,
            MaintenanceRecord.FULL,
            List.of("packs/a", "packs/b"),
            List.of("index/c"),
            List.of(),
            List.of("packs/d"),
            List.of(),
            List.of(),
            List.of("all packs: a snapshot cannot be read"));
    String name = "maintenance/x";
    // The mapper also wrote isAbandoned() as a field, which §9.3 never had and readers ignore.
    assertThat(new String(r.toJson(), UTF_8))
        .isEqualTo(new String(Json.write(r), UTF_8).replace(",\"abandoned\":false", ""));
    assertThat(MaintenanceRecord.parse(name, Json.write(r))).isEqualTo(r);
    assertThat(Json.MAPPER.readValue(r.toJson(), MaintenanceRecord.class)).isEqualTo(r);
    // Records written before heldBack existed read it as empty.
    String old = new String(r.toJson(), UTF_8).replaceAll(",\"heldBack\":\\[[^]]*]", "");
    assertThat(old).doesNotContain("heldBack");
    assertThat(MaintenanceRecord.parse(name, old.getBytes(UTF_8)).heldBack()).isEmpty();
    assertThatThrownBy(() -> MaintenanceRecord.parse(name, "{\"version\":2}".getBytes(UTF_8)))
        .isInstanceOf(UnsupportedVersionException.class);
  }

  @Test
  void aTombstoneIsWrittenAsTheMapperWroteIt() throws Exception {
    Tombstone t = new Tombstone(SNAPSHOT, TIME, "forget --keep-last 3");
    assertThat(t.toJson()).isEqualTo(Json.write(t));
    assertThat(Tombstone.parse("tombstones/x", Json.write(t))).isEqualTo(t);
    assertThatThrownBy(() -> Tombstone.parse("tombstones/x", "[]".getBytes(UTF_8)))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining("tombstones/x");
  }
}
