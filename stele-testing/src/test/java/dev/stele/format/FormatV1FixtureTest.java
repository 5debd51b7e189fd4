package dev.stele.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.chunk.ChunkerParams;
import dev.stele.chunk.FastCdc;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Json;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.SnapshotManifest;
import dev.stele.repo.Tombstone;
import dev.stele.repo.WrongPasswordException;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import dev.stele.testing.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decodes the repository in {@code src/test/resources/format-v1}, written once by {@link
 * FormatV1FixtureGenerator}, and checks concrete values. If a byte layout, a KDF use, an HKDF
 * label, an AAD, the compression flag or a JSON field name changes, the engine can no longer read
 * these blobs and this test fails: that is its purpose (see docs/format.md).
 *
 * <p>Two readers are exercised: the engine through its public API, and {@link Reader}, a
 * from-scratch implementation of docs/format.md using only the JDK, BouncyCastle's Argon2 and zstd.
 * The fixture is copied to a temporary directory first, so nothing can write to it.
 */
class FormatV1FixtureTest {
  static final String PASSWORD = "format-v1 password";
  static final String SECOND_PASSWORD = "format-v1 second password";

  static final String FIRST_KEY =
      "keys/9e1a11ab7caee5adf091a1a8441ee1f615718469de7782c922ef046d6e5c97bc";
  static final String SECOND_KEY =
      "keys/2a082888c26a00e73462c9c6639c16054f20c94eac935ce8f0d70dea1bea36b7";

  static final String SNAPSHOT_1 =
      "5db6b4b68e2f77340e0064bdb7e894e9b7d344051dd5262cc5182f846bbc0487";
  static final String SNAPSHOT_2 =
      "8c02f1eabd35d73bca9418c899b505bfc465d7c6f49dbf9820cdddb29c7d69c2";
  static final String TOMBSTONE =
      "8acd297bb42deb0975336babbd05fd8768accb1674f8e6b2f52dbb79e530706e";
  static final String MAINTENANCE =
      "31d691a48447ab57157403e0c45babbc183f69ca02ffe3330399c791159e1fcf";
  static final String ROOT_TREE =
      "96b2707be1095681ecfcde9757c75c0b2bdd741107660187ebe921973e133b07";

  static final String INDEX_REWRITE =
      "ad788501ee04ff1ad372c235154aa7daa0ced2f2a2541e8bb410e071dd8241da";
  static final String INDEX_BACKUP_1 =
      "35de561e422d6a002cf76c15039bf0887c90e09eaf74c6ea3baf7ee17c9bf3a8";
  static final String INDEX_BACKUP_2 =
      "293eddea3db8f7595445e32308eeb19b945bd2cf2de39561f62acd51aae90747";
  static final String INDEX_COMPACTED =
      "935ee3bab5bf93fd6b7bb6e954e6109b0eb8c24996ca02205b68045d36c81455";

  static final String PACK_DATA_1 = "packs/286ac2f0e150a973cc4c1d7b10940f9d";
  static final String PACK_DATA_2 = "packs/7a111f26d90de606ad3a82d5071601b4";
  static final String PACK_TREES_1 = "packs/5cddd8865b4cac3148ad39cf0e67e134";
  static final String PACK_TREES_2 = "packs/f76d694fda3efb930b8e9b28e4227474";
  static final String PACK_REWRITTEN = "packs/73b5545d56ddcfce51c2c1afa868e7ab";

  static final String HELLO_V1 = "Hello, Stele!\n".repeat(20);
  static final String HELLO_V2 = HELLO_V1 + "A second line, added before snapshot two.\n";
  static final String BINARY_SHA256 =
      "ab4da5766146c579750f48e8b6d780a0ee84bbcebaa2a7c9719b28ddf980893a";
  static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  static final String FORMAT_JSON =
      "{\"magic\":\"stele-repository\",\"version\":1,\"id\":\"add972d8d2d966a4b53dda65a6950397\","
          + "\"created\":\"2030-01-01T00:00:00Z\",\"chunker\":{\"algorithm\":\"fastcdc-gear\","
          + "\"minSize\":256,\"avgSize\":1024,\"maxSize\":4096},\"compressionLevel\":3,"
          + "\"packSize\":65536,\"markWindow\":\"PT1H\",\"sweepWindow\":\"PT6H\","
          + "\"retentionMode\":\"NONE\",\"minimumRetention\":\"PT0S\"}";

  @TempDir Path dir;
  BlobStore store;
  Repository repo;

  @BeforeEach
  void openCopy() throws Exception {
    Path fixture = fixture();
    try (Stream<Path> files = Files.walk(fixture)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        Path target = dir.resolve(fixture.relativize(p).toString());
        Files.createDirectories(target.getParent());
        Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T06:00:00Z"));
    store = new FilesystemBlobStore(dir, clock);
    repo = Repository.open(store, PASSWORD.toCharArray(), clock);
  }

  static Path fixture() throws URISyntaxException {
    return Path.of(FormatV1FixtureTest.class.getResource("/format-v1/stele.format").toURI())
        .getParent();
  }

  @Test
  void namespaceHoldsExactlyTheFixtureBlobs() throws IOException {
    assertThat(store.list("").stream().map(BlobInfo::name))
        .containsExactly(
            "index/" + INDEX_BACKUP_2,
            "index/" + INDEX_BACKUP_1,
            "index/" + INDEX_COMPACTED,
            "index/" + INDEX_REWRITE,
            SECOND_KEY,
            FIRST_KEY,
            "maintenance/" + MAINTENANCE,
            PACK_DATA_1,
            PACK_TREES_1,
            PACK_REWRITTEN,
            PACK_DATA_2,
            PACK_TREES_2,
            "snapshots/" + SNAPSHOT_2,
            "stele.format",
            "tombstones/" + TOMBSTONE);
  }

  @Test
  void formatBlob() throws IOException {
    assertThat(new String(store.read(RepositoryFormat.BLOB), StandardCharsets.UTF_8))
        .isEqualTo(FORMAT_JSON);
    RepositoryFormat f = repo.format();
    assertThat(f.magic()).isEqualTo("stele-repository");
    assertThat(f.version()).isEqualTo(1);
    assertThat(f.id()).isEqualTo("add972d8d2d966a4b53dda65a6950397");
    assertThat(f.created()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(f.chunker())
        .isEqualTo(new RepositoryFormat.Chunking("fastcdc-gear", 256, 1024, 4096));
    assertThat(f.compressionLevel()).isEqualTo(3);
    assertThat(f.packSize()).isEqualTo(65536);
    assertThat(f.markWindow()).isEqualTo(Duration.ofHours(1));
    assertThat(f.sweepWindow()).isEqualTo(Duration.ofHours(6));
    assertThat(f.retentionMode()).isEqualTo(Retention.Mode.NONE);
    assertThat(f.minimumRetention()).isEqualTo(Duration.ZERO);
  }

  @Test
  void twoKeysAndBothPasswordsOpen() throws IOException {
    assertThat(store.list("keys/").stream().map(BlobInfo::name))
        .containsExactly(SECOND_KEY, FIRST_KEY);
    assertThat(repo.keyName()).isEqualTo(FIRST_KEY);
    MutableClock clock = new MutableClock();
    try (Repository second = Repository.open(store, SECOND_PASSWORD.toCharArray(), clock)) {
      assertThat(second.keyName()).isEqualTo(SECOND_KEY);
      // Same master key: the same plaintext gets the same chunk id.
      assertThat(second.chunkId(new byte[] {1, 2, 3}, 0, 3))
          .isEqualTo(repo.chunkId(new byte[] {1, 2, 3}, 0, 3));
    }
    assertThatThrownBy(() -> Repository.open(store, "wrong".toCharArray(), clock))
        .isInstanceOf(WrongPasswordException.class);

    JsonNode first = Json.MAPPER.readTree(store.read(FIRST_KEY));
    assertThat(first.get("version").asInt()).isEqualTo(1);
    assertThat(first.get("created").asText()).isEqualTo("2030-01-01T00:00:00Z");
    assertThat(first.get("host").asText()).isEqualTo("fixture-host");
    JsonNode kdf = first.get("kdf");
    assertThat(kdf.get("algorithm").asText()).isEqualTo("argon2id");
    assertThat(kdf.get("memoryKiB").asInt()).isEqualTo(1024);
    assertThat(kdf.get("iterations").asInt()).isEqualTo(1);
    assertThat(kdf.get("parallelism").asInt()).isEqualTo(1);
    assertThat(kdf.get("salt").asText()).isEqualTo("AAECAwQFBgcICQoLDA0ODw==");
    // iv, {"secret":"<44 base64 chars>","format":"<64 hex digits>"}, tag
    assertThat(Base64.getDecoder().decode(first.get("sealed").asText())).hasSize(16 + 133 + 32);
    JsonNode second = Json.MAPPER.readTree(store.read(SECOND_KEY));
    assertThat(second.get("created").asText()).isEqualTo("2030-01-01T04:00:00Z");
    assertThat(second.get("kdf").get("salt").asText()).isEqualTo("EBESExQVFhcYGRobHB0eHw==");
  }

  @Test
  void snapshotsAndManifest() throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    assertThat(catalog.list().stream().map(e -> e.id().hex())).containsExactly(SNAPSHOT_2);
    assertThat(repo.list(BlobKind.SNAPSHOT)).containsExactly(Id.parse(SNAPSHOT_2));

    SnapshotManifest m = catalog.read(Id.parse(SNAPSHOT_2));
    assertThat(m.version()).isEqualTo(1);
    assertThat(m.time()).isEqualTo(Instant.parse("2030-01-01T02:00:00Z"));
    assertThat(m.host()).isEqualTo("fixture-host");
    assertThat(m.user()).isEqualTo("fixture");
    assertThat(m.paths()).containsExactly("/tmp/stele-format-v1");
    assertThat(m.tags()).containsExactly("second", "changed");
    assertThat(m.parent()).isEqualTo(SNAPSHOT_1);
    assertThat(m.tree()).isEqualTo(ROOT_TREE);
    assertThat(m.expires()).isNull();
    assertThat(m.labels()).containsExactly(Map.entry("purpose", "format fixture"));
    SnapshotManifest.Stats s = m.stats();
    assertThat(
            List.of(
                s.files(),
                s.dirs(),
                s.bytes(),
                s.filesNew(),
                s.chunksNew(),
                s.bytesNew(),
                s.bytesStored(),
                s.skipped()))
        .containsExactly(5L, 3L, 5334L, 1L, 5L, 1210L, 1047L, 0L);
    assertThat(s.seconds()).isEqualTo(0.03626871);
  }

  @Test
  void treesDownToTheFiles() throws IOException {
    SnapshotManifest m = new SnapshotCatalog(repo).read(Id.parse(SNAPSHOT_2));
    SnapshotBrowser browser = new SnapshotBrowser(repo);

    Tree root = browser.tree(browser.root(m));
    assertThat(root.nodes()).extracting(Node::name).containsExactly("tmp");
    Node tmp = root.find("tmp");
    assertThat(tmp.kind()).isEqualTo(Node.Kind.DIRECTORY);
    assertThat(tmp.mode()).isEqualTo(01777);
    assertThat(tmp.subtree().hex())
        .isEqualTo("0ba0c518f8cecae3c459807f1e90b16404ea4b8f074cfe9c4eb318e1923801de");

    Node top = browser.find(m, "/tmp/stele-format-v1");
    assertThat(top.mode()).isEqualTo(0755);
    assertThat(top.mtimeNanos()).isEqualTo(1893453000000000000L);
    assertThat(top.subtree().hex())
        .isEqualTo("6cddb0a15bc2039f2860e955a3ee94f20c31204f3056978f1d0cce2ddf37fa15");
    assertThat(browser.tree(top).nodes()).extracting(Node::name).containsExactly("data");

    Node data = browser.find(m, "/tmp/stele-format-v1/data");
    assertThat(data.mode()).isEqualTo(0755);
    assertThat(data.mtimeNanos()).isEqualTo(1893459700000000000L);
    assertThat(data.links()).isEqualTo(3);
    assertThat(data.subtree().hex())
        .isEqualTo("7190597c187d7a3fb520b6b66fec2d7e142f34956b620f8f01cdd722490dd216");
    Tree dataTree = browser.tree(data);
    assertThat(dataTree.nodes())
        .extracting(Node::name, Node::kind, Node::mode, Node::size)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("binary.bin", Node.Kind.FILE, 0600, 5000L),
            org.assertj.core.groups.Tuple.tuple("empty", Node.Kind.FILE, 0444, 0L),
            org.assertj.core.groups.Tuple.tuple("hello.txt", Node.Kind.FILE, 0644, 322L),
            org.assertj.core.groups.Tuple.tuple("link", Node.Kind.SYMLINK, 0777, 0L),
            org.assertj.core.groups.Tuple.tuple("sub", Node.Kind.DIRECTORY, 0750, 0L));

    Node binary = dataTree.find("binary.bin");
    assertThat(binary.mtimeNanos()).isEqualTo(1893452500000000000L);
    assertThat(binary.links()).isEqualTo(1);
    assertThat(binary.chunks().stream().map(Id::hex))
        .containsExactly(
            "3564f61a5dcaba8861ff7521dbeed2c254d7a0333d9e31dd281c0b6e56d74586",
            "43f1831fa016252e71bfcf18405c35a3348a92151a5fa29df4af85dfe591605a",
            "d1077531b23653e8d00873507fc4482b22a830640df3b5e7f6270b4c26458a0d",
            "418314035f70dd81850ffee76608e38c0e695d5fe3e4f72c15d00ed7a47e68c9",
            "882cdbca003a0632d74e1f2b0da8d30ed2d9165f3943c2e6497e63527c9800ce");
    assertThat(dataTree.find("empty").chunks()).isEmpty();
    assertThat(dataTree.find("empty").mtimeNanos()).isEqualTo(1893452600000000000L);
    Node hello = dataTree.find("hello.txt");
    assertThat(hello.mtimeNanos()).isEqualTo(1893459600000000000L);
    assertThat(hello.chunks().stream().map(Id::hex))
        .containsExactly("13e0f4a4b90850d1098d780e99e9a04b55812c2b0bb1837ad5367d962f971e4d");
    Node link = dataTree.find("link");
    assertThat(link.target()).isEqualTo("hello.txt");
    assertThat(link.chunks()).isEmpty();
    assertThat(link.subtree()).isNull();
    Node sub = dataTree.find("sub");
    assertThat(sub.mtimeNanos()).isEqualTo(1893452800000000000L);
    assertThat(sub.subtree().hex())
        .isEqualTo("662b5055c764b3b4d5c9119a280cfb710b5732d43cced84a2acdbe1908ac5e36");

    Tree subTree = browser.tree(sub);
    assertThat(subTree.nodes())
        .extracting(Node::name, Node::kind, Node::mode, Node::size, Node::mtimeNanos)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "nested.txt", Node.Kind.FILE, 0640, 12L, 1893452700000000000L));
    assertThat(subTree.find("nested.txt").chunks().stream().map(Id::hex))
        .containsExactly("813c68e77103023bbf2c61f7e2d920da7add522578ec72ecf303bc30bf13c630");

    // Trees are canonical: re-encoding a decoded tree gives the stored bytes again.
    for (Node d : List.of(browser.root(m), tmp, top, data, sub)) {
      byte[] stored = repo.readChunk(d.subtree());
      assertThat(Tree.decode(d.subtree(), stored).encode()).isEqualTo(stored);
      assertThat(repo.chunkId(stored, 0, stored.length)).isEqualTo(d.subtree());
    }
  }

  @Test
  void fileContents(@TempDir Path target) throws IOException {
    SnapshotManifest m = new SnapshotCatalog(repo).read(Id.parse(SNAPSHOT_2));
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    String data = "/tmp/stele-format-v1/data/";
    assertThat(new String(cat(browser, m, data + "hello.txt"), StandardCharsets.UTF_8))
        .isEqualTo(HELLO_V2);
    assertThat(sha256(cat(browser, m, data + "binary.bin"))).isEqualTo(BINARY_SHA256);
    assertThat(cat(browser, m, data + "empty")).isEmpty();
    assertThat(new String(cat(browser, m, data + "sub/nested.txt"), StandardCharsets.UTF_8))
        .isEqualTo("nested file\n");
    // The first snapshot's text, in a chunk the forgotten snapshot alone used.
    assertThat(
            repo.readChunk(
                Id.parse("dbf9ce3f638f6d5ad4c319cc7ce8991f37d2ed92fbae0b007c756478333a14f3")))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo(HELLO_V1);

    new FileRestore(repo, 1, FileRestoreListener.NONE).run(m, data, target);
    assertThat(Files.readString(target.resolve("hello.txt"))).isEqualTo(HELLO_V2);
    assertThat(sha256(Files.readAllBytes(target.resolve("binary.bin")))).isEqualTo(BINARY_SHA256);
    assertThat(sha256(Files.readAllBytes(target.resolve("empty")))).isEqualTo(EMPTY_SHA256);
    assertThat(Files.readString(target.resolve("sub/nested.txt"))).isEqualTo("nested file\n");
    assertThat(Files.readSymbolicLink(target.resolve("link"))).isEqualTo(Path.of("hello.txt"));
  }

  @Test
  void chunkerReproducesTheStoredBoundaries() throws IOException {
    SnapshotManifest m = new SnapshotCatalog(repo).read(Id.parse(SNAPSHOT_2));
    byte[] binary = cat(new SnapshotBrowser(repo), m, "/tmp/stele-format-v1/data/binary.bin");
    FastCdc cdc = new FastCdc(new ChunkerParams(256, 1024, 4096), repo.gearTable());
    assertThat(cdc.strictMask()).isEqualTo(0xFFF0000000000000L);
    assertThat(cdc.looseMask()).isEqualTo(0xFF00000000000000L);
    List<Integer> lengths = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int off = 0; off < binary.length; ) {
      int len = cdc.cut(binary, off, binary.length - off, true);
      lengths.add(len);
      ids.add(repo.chunkId(binary, off, len).hex());
      off += len;
    }
    assertThat(lengths).containsExactly(1729, 1098, 1035, 1044, 94);
    assertThat(ids)
        .containsExactly(
            "3564f61a5dcaba8861ff7521dbeed2c254d7a0333d9e31dd281c0b6e56d74586",
            "43f1831fa016252e71bfcf18405c35a3348a92151a5fa29df4af85dfe591605a",
            "d1077531b23653e8d00873507fc4482b22a830640df3b5e7f6270b4c26458a0d",
            "418314035f70dd81850ffee76608e38c0e695d5fe3e4f72c15d00ed7a47e68c9",
            "882cdbca003a0632d74e1f2b0da8d30ed2d9165f3943c2e6497e63527c9800ce");
  }

  @Test
  void tombstone() throws IOException {
    assertThat(repo.tombstones())
        .containsExactly(Map.entry("snapshots/" + SNAPSHOT_1, List.of(Id.parse(TOMBSTONE))));
    Tombstone t =
        Tombstone.parse(
            "tombstones/" + TOMBSTONE, repo.readBlob(BlobKind.TOMBSTONE, Id.parse(TOMBSTONE)));
    assertThat(t.target()).isEqualTo("snapshots/" + SNAPSHOT_1);
    assertThat(t.time()).isEqualTo(Instant.parse("2030-01-01T03:00:00Z"));
    assertThat(t.reason()).isEqualTo("fixture: forget snapshot one");
  }

  @Test
  void maintenanceRecord() throws IOException {
    Map<Id, MaintenanceRecord> records = repo.maintenanceRecords();
    assertThat(records).containsOnlyKeys(Id.parse(MAINTENANCE));
    MaintenanceRecord r = records.get(Id.parse(MAINTENANCE));
    assertThat(r.version()).isEqualTo(1);
    assertThat(r.time()).isEqualTo(Instant.parse("2030-01-01T05:00:00Z"));
    assertThat(r.kind()).isEqualTo("full");
    assertThat(r.markedPacks()).containsExactly(PACK_TREES_1);
    assertThat(r.rewrittenPacks()).containsExactly(PACK_TREES_1);
    assertThat(r.heldBack()).as("absent in v1 records: read as empty").isEmpty();
    assertThat(r.supersededIndexes())
        .containsExactly("index/" + INDEX_BACKUP_2, "index/" + INDEX_BACKUP_1);
    assertThat(r.deleted()).containsExactly("snapshots/" + SNAPSHOT_1);
    assertThat(r.deferred()).isEmpty();
    assertThat(r.extended()).isEmpty();
  }

  @Test
  void indexAndPackFooters() throws IOException {
    var index = repo.loadIndex();
    assertThat(index.blobs()).containsExactly(Id.parse(INDEX_COMPACTED), Id.parse(INDEX_REWRITE));
    assertThat(index.markedPacks()).containsExactly(PACK_TREES_1);
    assertThat(index.chunkCount()).isEqualTo(17);
    Map<String, Integer> expected =
        Map.of(PACK_DATA_1, 7, PACK_DATA_2, 1, PACK_TREES_1, 5, PACK_TREES_2, 4, PACK_REWRITTEN, 1);
    assertThat(index.packs()).hasSize(5);
    expected.forEach((pack, count) -> assertThat(index.packs().get(pack)).hasSize(count));

    for (BlobInfo info : store.list("packs/")) {
      List<PackEntry> footer = repo.readPackFooter(info.name(), info.size());
      assertThat(footer).as(info.name()).hasSize(expected.get(info.name()));
      assertThat(footer).containsExactlyInAnyOrderElementsOf(index.packs().get(info.name()));
    }
    List<PackEntry> data1 = repo.readPackFooter(PACK_DATA_1, 5769);
    assertThat(data1)
        .extracting(PackEntry::type, PackEntry::offset, PackEntry::length, PackEntry::rawLength)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 8, 1778, 1729),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 1786, 1147, 1098),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 2933, 1084, 1035),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 4017, 1093, 1044),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 5110, 143, 94),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 5253, 80, 280),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 5333, 61, 12));
  }

  @Test
  void verifyReadsEveryByte() throws IOException {
    Verify.Result result = new Verify(repo).run(true, VerifyListener.NONE);
    assertThat(result.problems()).isEmpty();
    assertThat(result.ok()).isTrue();
    assertThat(result.snapshots()).isEqualTo(1);
    assertThat(result.trees()).isEqualTo(5);
    assertThat(result.packs()).isEqualTo(5);
    assertThat(result.chunks()).isEqualTo(17);
    assertThat(result.bytesRead()).isEqualTo(8814);
  }

  /** docs/format.md, implemented again without the engine: it must read the same values. */
  @Test
  void independentReaderFollowingTheDocument() throws Exception {
    Reader reader = new Reader(store, PASSWORD);
    assertThat(new Reader(store, SECOND_PASSWORD).blobKey).isEqualTo(reader.blobKey);

    // Standalone blobs: envelope header, kind code, payload equal to what the engine reads.
    Map<BlobKind, Integer> codes =
        Map.of(
            BlobKind.INDEX,
            1,
            BlobKind.SNAPSHOT,
            2,
            BlobKind.TOMBSTONE,
            3,
            BlobKind.MAINTENANCE,
            4);
    for (BlobKind kind : BlobKind.values()) {
      for (Id id : repo.list(kind)) {
        byte[] payload = reader.openEnvelope(kind.nameOf(id), codes.get(kind));
        assertThat(payload).isEqualTo(repo.readBlob(kind, id));
      }
    }
    assertThat(reader.flagOf("index/" + INDEX_REWRITE)).isEqualTo(0);
    assertThat(reader.flagOf("index/" + INDEX_COMPACTED)).isEqualTo(1);
    assertThat(reader.flagOf("snapshots/" + SNAPSHOT_2)).isEqualTo(1);
    JsonNode manifest = Json.MAPPER.readTree(reader.openEnvelope("snapshots/" + SNAPSHOT_2, 2));
    assertThat(manifest.get("tree").asText()).isEqualTo(ROOT_TREE);

    // Index payloads.
    Map<String, Integer> compacted = new LinkedHashMap<>();
    List<String> supersedes = new ArrayList<>();
    reader.decodeIndex(reader.openEnvelope("index/" + INDEX_COMPACTED, 1), supersedes, compacted);
    assertThat(supersedes).containsExactly(INDEX_BACKUP_2, INDEX_BACKUP_1);
    assertThat(compacted)
        .containsOnly(
            Map.entry(PACK_DATA_1, 7),
            Map.entry(PACK_DATA_2, 1),
            Map.entry(PACK_TREES_1, 5),
            Map.entry(PACK_TREES_2, 4),
            Map.entry(PACK_REWRITTEN, 1));
    Map<String, Integer> first = new LinkedHashMap<>();
    supersedes.clear();
    reader.decodeIndex(reader.openEnvelope("index/" + INDEX_BACKUP_1, 1), supersedes, first);
    assertThat(supersedes).isEmpty();
    assertThat(first).containsOnly(Map.entry(PACK_DATA_1, 7), Map.entry(PACK_TREES_1, 5));

    // Packs: every chunk opens, decompresses to rawLength and hashes to its id.
    int chunks = 0;
    for (BlobInfo info : store.list("packs/")) {
      chunks += reader.checkPack(info.name());
    }
    assertThat(chunks).isEqualTo(18); // 17 distinct ids; the sub tree lies in two packs
  }

  /** A reader written from docs/format.md alone. */
  static final class Reader {
    final BlobStore store;
    final byte[] blobKey;
    final byte[] chunkIdKey;
    final byte[] chunkKeyKey;

    Reader(BlobStore store, String password) throws Exception {
      this.store = store;
      byte[] formatBytes = store.read("stele.format");
      byte[] master = null;
      for (BlobInfo key : store.list("keys/")) {
        byte[] blob = store.read(key.name());
        assertThat(key.name()).isEqualTo("keys/" + sha256(blob));
        JsonNode json = Json.MAPPER.readTree(blob);
        JsonNode kdf = json.get("kdf");
        byte[] kek =
            argon2id(
                password.getBytes(StandardCharsets.UTF_8),
                Base64.getDecoder().decode(kdf.get("salt").asText()),
                kdf.get("memoryKiB").asInt(),
                kdf.get("iterations").asInt(),
                kdf.get("parallelism").asInt());
        byte[] sealed = Base64.getDecoder().decode(json.get("sealed").asText());
        byte[] payload;
        try {
          payload = aeadOpen(kek, "stele key v1".getBytes(StandardCharsets.US_ASCII), sealed);
        } catch (javax.crypto.AEADBadTagException e) {
          continue; // another password's key
        }
        JsonNode inner = Json.MAPPER.readTree(payload);
        assertThat(inner.get("format").asText()).isEqualTo(sha256(formatBytes));
        master = Base64.getDecoder().decode(inner.get("secret").asText());
      }
      assertThat(master).as("a key blob that %s opens", password).hasSize(32);
      blobKey = hkdf(master, "stele blob");
      chunkIdKey = hkdf(master, "stele chunk-id");
      chunkKeyKey = hkdf(master, "stele chunk-key");
    }

    int flagOf(String name) throws Exception {
      byte[] blob = store.read(name);
      return aeadOpen(blobKey, Arrays.copyOf(blob, 6), Arrays.copyOfRange(blob, 6, blob.length))[0];
    }

    byte[] openEnvelope(String name, int kind) throws Exception {
      byte[] blob = store.read(name);
      assertThat(name.substring(name.indexOf('/') + 1)).isEqualTo(sha256(blob));
      byte[] header = Arrays.copyOf(blob, 6);
      assertThat(header).isEqualTo(new byte[] {'S', 'T', 'L', 'B', 1, (byte) kind});
      byte[] framed = aeadOpen(blobKey, header, Arrays.copyOfRange(blob, 6, blob.length));
      return unframe(framed, -1);
    }

    void decodeIndex(byte[] payload, List<String> supersedes, Map<String, Integer> packs) {
      ByteBuffer in = ByteBuffer.wrap(payload);
      assertThat(in.get()).isEqualTo((byte) 1);
      int n = in.getInt();
      for (int i = 0; i < n; i++) {
        byte[] id = new byte[32];
        in.get(id);
        supersedes.add(HexFormat.of().formatHex(id));
      }
      int packCount = in.getInt();
      for (int p = 0; p < packCount; p++) {
        byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(name);
        int count = in.getInt();
        in.position(in.position() + count * (32 + 1 + 4 + 4 + 4));
        packs.put(new String(name, StandardCharsets.UTF_8), count);
      }
      assertThat(in.hasRemaining()).isFalse();
    }

    /** Checks one pack byte by byte; returns its number of chunks. */
    int checkPack(String name) throws Exception {
      byte[] pack = store.read(name);
      assertThat(new String(pack, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("STLPACK1");
      assertThat(new String(pack, pack.length - 4, 4, StandardCharsets.US_ASCII)).isEqualTo("STLE");
      int footerLength = ByteBuffer.wrap(pack, pack.length - 8, 4).getInt();
      int footerStart = pack.length - 8 - footerLength;
      byte[] table =
          aeadOpen(
              blobKey,
              name.getBytes(StandardCharsets.UTF_8),
              Arrays.copyOfRange(pack, footerStart, footerStart + footerLength));
      ByteBuffer in = ByteBuffer.wrap(table);
      int count = in.getInt();
      assertThat(table).hasSize(4 + count * 45);
      int expectedOffset = 8;
      for (int i = 0; i < count; i++) {
        byte[] id = new byte[32];
        in.get(id);
        byte type = in.get();
        int offset = in.getInt();
        int length = in.getInt();
        int rawLength = in.getInt();
        assertThat(offset).isEqualTo(expectedOffset); // chunks are contiguous from byte 8
        expectedOffset += length;
        byte[] aad = Arrays.copyOf(id, 33);
        aad[32] = type;
        byte[] framed =
            aeadOpen(hmac(chunkKeyKey, id), aad, Arrays.copyOfRange(pack, offset, offset + length));
        byte[] plain = unframe(framed, rawLength);
        assertThat(plain).hasSize(rawLength);
        assertThat(hmac(chunkIdKey, plain)).isEqualTo(id);
      }
      assertThat(expectedOffset).isEqualTo(footerStart);
      return count;
    }

    static byte[] unframe(byte[] framed, int rawLength) {
      if (framed[0] == 0) {
        return Arrays.copyOfRange(framed, 1, framed.length);
      }
      assertThat(framed[0]).isEqualTo((byte) 1);
      byte[] zstd = Arrays.copyOfRange(framed, 1, framed.length);
      int size = rawLength >= 0 ? rawLength : (int) Zstd.getFrameContentSize(zstd);
      byte[] out = Zstd.decompress(zstd, size);
      assertThat(out).hasSize(size);
      return out;
    }

    static byte[] argon2id(byte[] password, byte[] salt, int memoryKiB, int iterations, int lanes) {
      Argon2BytesGenerator g = new Argon2BytesGenerator();
      g.init(
          new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
              .withVersion(Argon2Parameters.ARGON2_VERSION_13)
              .withMemoryAsKB(memoryKiB)
              .withIterations(iterations)
              .withParallelism(lanes)
              .withSalt(salt)
              .build());
      byte[] out = new byte[32];
      g.generateBytes(password, out);
      return out;
    }

    /** HKDF-SHA256, salt 32 zero bytes, 32 bytes of output: one expand block. */
    static byte[] hkdf(byte[] ikm, String info) throws GeneralSecurityException {
      byte[] prk = hmac(new byte[32], ikm);
      byte[] input = Arrays.copyOf(info.getBytes(StandardCharsets.US_ASCII), info.length() + 1);
      input[info.length()] = 1;
      return hmac(prk, input);
    }

    static byte[] hmac(byte[] key, byte[] data) throws GeneralSecurityException {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    }

    /**
     * The sealed-message format of docs/format.md §3.4: {@code iv[16] ‖ ciphertext ‖ tag[32]},
     * AES-256-CTR under {@code HMAC-SHA256(key, "enc")}, tag {@code HMAC-SHA256(HMAC-SHA256(key,
     * "mac"), be32(|aad|) ‖ aad ‖ iv ‖ ciphertext)}.
     */
    static byte[] aeadOpen(byte[] key, byte[] aad, byte[] sealed) throws GeneralSecurityException {
      if (sealed.length < 48) {
        throw new javax.crypto.AEADBadTagException("shorter than iv + tag");
      }
      int body = sealed.length - 32;
      byte[] macInput =
          ByteBuffer.allocate(4 + aad.length + body)
              .putInt(aad.length)
              .put(aad)
              .put(sealed, 0, body)
              .array();
      byte[] tag = hmac(hmac(key, "mac".getBytes(StandardCharsets.US_ASCII)), macInput);
      if (!MessageDigest.isEqual(tag, Arrays.copyOfRange(sealed, body, sealed.length))) {
        throw new javax.crypto.AEADBadTagException("tag mismatch");
      }
      Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
      c.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(hmac(key, "enc".getBytes(StandardCharsets.US_ASCII)), "AES"),
          new IvParameterSpec(sealed, 0, 16));
      return c.doFinal(sealed, 16, body - 16);
    }
  }

  static byte[] cat(SnapshotBrowser browser, SnapshotManifest m, String path) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    browser.cat(browser.find(m, path), out);
    return out.toByteArray();
  }

  static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
