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
import dev.stele.snapshot.Node;
import dev.stele.snapshot.Restore;
import dev.stele.snapshot.RestoreListener;
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
import javax.crypto.spec.GCMParameterSpec;
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
      "keys/86b873574128a9cddccc441c5e8962db56e424f01054c3d5e497c56fb191d5fd";
  static final String SECOND_KEY =
      "keys/5022998c266ce9440fe4a62364f9747ac8ae10a72f4379c41be7cb8fa8526b0d";

  static final String SNAPSHOT_1 =
      "0867292667187843323b6c85552c82a69017b263797c1c7ebc7514acdc04a14d";
  static final String SNAPSHOT_2 =
      "cfcef062780e1237e2fdb3786333ac5dccbdf3c8701375f71eed40dfd4e53f97";
  static final String TOMBSTONE =
      "c16d52356848eeb97fbb566a3e48acca342965565865a8e6e7993d0569fe65fe";
  static final String MAINTENANCE =
      "09ee50c77f117e984673af75a206ed9c265cd88e97fafa07b34956389792f7f7";
  static final String ROOT_TREE =
      "cfde73b315b2aa52a91388983710c9b3a59d3b3ea77d23e58d7abc10881423bd";

  static final String INDEX_REWRITE =
      "65f37d6d0e0b307a58638348080689ac39a3c7bc1e80eb755287f010f17c941b";
  static final String INDEX_BACKUP_1 =
      "832d0c1ad8f21a8f8fc9e64447d24525003b17b491fef64c16f0fba1fb04116e";
  static final String INDEX_BACKUP_2 =
      "8e01c74c8bb02d370bbaf1d00b6599b5b9c5c7691dce15f384a3dd2d336bf54a";
  static final String INDEX_COMPACTED =
      "fa1a5e6911a4a626a76653ed6ebdef4da700adcfc57345d14dbf42eacf45422f";

  static final String PACK_DATA_1 = "packs/0cc6087a1fab3b1d6af85a851a67d3d2";
  static final String PACK_DATA_2 = "packs/2f38538d642a8fb60b8fed125b0e59aa";
  static final String PACK_TREES_1 = "packs/772961b379ed1d9583363a588c15cc62";
  static final String PACK_TREES_2 = "packs/b8be6e17483c3b95d9b5aaaa681ac30e";
  static final String PACK_REWRITTEN = "packs/69ce49f7455c3e28384696f524fa67af";

  static final String HELLO_V1 = "Hello, Stele!\n".repeat(20);
  static final String HELLO_V2 = HELLO_V1 + "A second line, added before snapshot two.\n";
  static final String BINARY_SHA256 =
      "ab4da5766146c579750f48e8b6d780a0ee84bbcebaa2a7c9719b28ddf980893a";
  static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  static final String FORMAT_JSON =
      "{\"magic\":\"stele-repository\",\"version\":1,\"id\":\"f68de7309f2a40f9da31d5fd561ff664\","
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
            "index/" + INDEX_REWRITE,
            "index/" + INDEX_BACKUP_1,
            "index/" + INDEX_BACKUP_2,
            "index/" + INDEX_COMPACTED,
            SECOND_KEY,
            FIRST_KEY,
            "maintenance/" + MAINTENANCE,
            PACK_DATA_1,
            PACK_DATA_2,
            PACK_REWRITTEN,
            PACK_TREES_1,
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
    assertThat(f.id()).isEqualTo("f68de7309f2a40f9da31d5fd561ff664");
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
    // nonce, {"secret":"<44 base64 chars>","format":"<64 hex digits>"}, tag
    assertThat(Base64.getDecoder().decode(first.get("sealed").asText())).hasSize(12 + 133 + 16);
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
        .containsExactly(5L, 3L, 5334L, 1L, 5L, 1178L, 920L, 0L);
    assertThat(s.seconds()).isEqualTo(0.031136494);
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
        .isEqualTo("2c4695ad80cf90f2e5fb1f61761e3c675d717b538e7541d93a33c6e2ed63a591");

    Node top = browser.find(m, "/tmp/stele-format-v1");
    assertThat(top.mode()).isEqualTo(0755);
    assertThat(top.mtimeNanos()).isEqualTo(1893453000000000000L);
    assertThat(top.subtree().hex())
        .isEqualTo("b241f570325dbaa56225e77fd598c1af530725e56e45ce4705cbebe718e70b6e");
    assertThat(browser.tree(top).nodes()).extracting(Node::name).containsExactly("data");

    Node data = browser.find(m, "/tmp/stele-format-v1/data");
    assertThat(data.mode()).isEqualTo(0755);
    assertThat(data.mtimeNanos()).isEqualTo(1893459700000000000L);
    assertThat(data.links()).isEqualTo(3);
    assertThat(data.subtree().hex())
        .isEqualTo("397813bd14bcf2e209e2c3fa6fe3ce186f17d9c82a7205a948306bc476592f5f");
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
            "1b9c10be222cfc732597a79553fdb67b56d74059efccd99b9218be94dc4c3c69",
            "a236ce8ed6940fed61310cea236a8a7448c405ef2e7f9c3faacb24fd1e8ad370",
            "8afc360c65fddb45cf9d7eebb90cd21da830f7b7dcf0b757b379136d697d6a47",
            "f19d22990c911e71a8d1a67d33796b34e86525036963331a4b02876960c5ff60");
    assertThat(dataTree.find("empty").chunks()).isEmpty();
    assertThat(dataTree.find("empty").mtimeNanos()).isEqualTo(1893452600000000000L);
    Node hello = dataTree.find("hello.txt");
    assertThat(hello.mtimeNanos()).isEqualTo(1893459600000000000L);
    assertThat(hello.chunks().stream().map(Id::hex))
        .containsExactly("2a263cb70c2f4e93f37d93f1aa0e311e611bb03b8ebeed8d069eb3ee0a28ecbf");
    Node link = dataTree.find("link");
    assertThat(link.target()).isEqualTo("hello.txt");
    assertThat(link.chunks()).isEmpty();
    assertThat(link.subtree()).isNull();
    Node sub = dataTree.find("sub");
    assertThat(sub.mtimeNanos()).isEqualTo(1893452800000000000L);
    assertThat(sub.subtree().hex())
        .isEqualTo("c94edd9007b432af1da476a80c3f6522d80940a158f8c2bf23e9c6d517faf49f");

    Tree subTree = browser.tree(sub);
    assertThat(subTree.nodes())
        .extracting(Node::name, Node::kind, Node::mode, Node::size, Node::mtimeNanos)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "nested.txt", Node.Kind.FILE, 0640, 12L, 1893452700000000000L));
    assertThat(subTree.find("nested.txt").chunks().stream().map(Id::hex))
        .containsExactly("18fdeda5b26c4ec04ea5bb5f726127ceec86b8ad4b319b0c85a4d8867556247b");

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
                Id.parse("cf89ac881cc8cc4cc3277271708a4255dec527f197fe2e27da832ee69622c772")))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo(HELLO_V1);

    new Restore(repo, 1, RestoreListener.NONE).run(m, data, target);
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
    assertThat(lengths).containsExactly(1212, 1391, 1768, 629);
    assertThat(ids)
        .containsExactly(
            "1b9c10be222cfc732597a79553fdb67b56d74059efccd99b9218be94dc4c3c69",
            "a236ce8ed6940fed61310cea236a8a7448c405ef2e7f9c3faacb24fd1e8ad370",
            "8afc360c65fddb45cf9d7eebb90cd21da830f7b7dcf0b757b379136d697d6a47",
            "f19d22990c911e71a8d1a67d33796b34e86525036963331a4b02876960c5ff60");
  }

  @Test
  void tombstone() throws IOException {
    assertThat(repo.tombstones())
        .containsExactly(Map.entry("snapshots/" + SNAPSHOT_1, List.of(Id.parse(TOMBSTONE))));
    Tombstone t =
        Json.read(repo.readBlob(BlobKind.TOMBSTONE, Id.parse(TOMBSTONE)), Tombstone.class);
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
    assertThat(r.supersededIndexes())
        .containsExactly("index/" + INDEX_BACKUP_1, "index/" + INDEX_BACKUP_2);
    assertThat(r.deleted()).containsExactly("snapshots/" + SNAPSHOT_1);
    assertThat(r.deferred()).isEmpty();
    assertThat(r.extended()).isEmpty();
  }

  @Test
  void indexAndPackFooters() throws IOException {
    var index = repo.loadIndex();
    assertThat(index.blobs()).containsExactly(Id.parse(INDEX_REWRITE), Id.parse(INDEX_COMPACTED));
    assertThat(index.markedPacks()).containsExactly(PACK_TREES_1);
    assertThat(index.chunkCount()).isEqualTo(16);
    Map<String, Integer> expected =
        Map.of(PACK_DATA_1, 6, PACK_DATA_2, 1, PACK_TREES_1, 5, PACK_TREES_2, 4, PACK_REWRITTEN, 1);
    assertThat(index.packs()).hasSize(5);
    expected.forEach((pack, count) -> assertThat(index.packs().get(pack)).hasSize(count));

    for (BlobInfo info : store.list("packs/")) {
      List<PackEntry> footer = repo.readPackFooter(info.name(), info.size());
      assertThat(footer).as(info.name()).hasSize(expected.get(info.name()));
      assertThat(footer).containsExactlyInAnyOrderElementsOf(index.packs().get(info.name()));
    }
    List<PackEntry> data1 = repo.readPackFooter(PACK_DATA_1, 5535);
    assertThat(data1)
        .extracting(PackEntry::type, PackEntry::offset, PackEntry::length, PackEntry::rawLength)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 8, 1241, 1212),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 1249, 1420, 1391),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 2669, 1797, 1768),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 4466, 658, 629),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 5124, 60, 280),
            org.assertj.core.groups.Tuple.tuple(ChunkType.DATA, 5184, 41, 12));
  }

  @Test
  void verifyReadsEveryByte() throws IOException {
    Verify.Result result = new Verify(repo).run(true, VerifyListener.NONE);
    assertThat(result.problems()).isEmpty();
    assertThat(result.ok()).isTrue();
    assertThat(result.snapshots()).isEqualTo(1);
    assertThat(result.trees()).isEqualTo(5);
    assertThat(result.packs()).isEqualTo(5);
    assertThat(result.chunks()).isEqualTo(16);
    assertThat(result.bytesRead()).isEqualTo(8224);
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
    assertThat(supersedes).containsExactly(INDEX_BACKUP_1, INDEX_BACKUP_2);
    assertThat(compacted)
        .containsOnly(
            Map.entry(PACK_DATA_1, 6),
            Map.entry(PACK_DATA_2, 1),
            Map.entry(PACK_TREES_1, 5),
            Map.entry(PACK_TREES_2, 4),
            Map.entry(PACK_REWRITTEN, 1));
    Map<String, Integer> first = new LinkedHashMap<>();
    supersedes.clear();
    reader.decodeIndex(reader.openEnvelope("index/" + INDEX_BACKUP_1, 1), supersedes, first);
    assertThat(supersedes).isEmpty();
    assertThat(first).containsOnly(Map.entry(PACK_DATA_1, 6), Map.entry(PACK_TREES_1, 5));

    // Packs: every chunk opens, decompresses to rawLength and hashes to its id.
    int chunks = 0;
    for (BlobInfo info : store.list("packs/")) {
      chunks += reader.checkPack(info.name());
    }
    assertThat(chunks).isEqualTo(17); // 16 distinct ids; the sub tree lies in two packs
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
          payload = gcmOpen(kek, "stele key v1".getBytes(StandardCharsets.US_ASCII), sealed);
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
      return gcmOpen(blobKey, Arrays.copyOf(blob, 6), Arrays.copyOfRange(blob, 6, blob.length))[0];
    }

    byte[] openEnvelope(String name, int kind) throws Exception {
      byte[] blob = store.read(name);
      assertThat(name.substring(name.indexOf('/') + 1)).isEqualTo(sha256(blob));
      byte[] header = Arrays.copyOf(blob, 6);
      assertThat(header).isEqualTo(new byte[] {'S', 'T', 'L', 'B', 1, (byte) kind});
      byte[] framed = gcmOpen(blobKey, header, Arrays.copyOfRange(blob, 6, blob.length));
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
          gcmOpen(
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
            gcmOpen(hmac(chunkKeyKey, id), aad, Arrays.copyOfRange(pack, offset, offset + length));
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

    static byte[] gcmOpen(byte[] key, byte[] aad, byte[] sealed) throws GeneralSecurityException {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(128, sealed, 0, 12));
      c.updateAAD(aad);
      return c.doFinal(sealed, 12, sealed.length - 12);
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
