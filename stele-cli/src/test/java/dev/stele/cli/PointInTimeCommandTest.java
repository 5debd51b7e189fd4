package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.Retention;
import dev.stele.testing.Await;
import dev.stele.testing.TreeAssert;
import dev.stele.testing.VersionedInMemoryBlobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --as-of, version fallback warnings, --retain, verify --retention and repo init --lock-mode. */
class PointInTimeCommandTest {
  @TempDir Path tmp;
  Path source;
  String name;
  VersionedInMemoryBlobStore store;
  Cli cli;

  @BeforeEach
  void setUp() throws IOException {
    source = tmp.resolve("source");
    Files.createDirectories(source.resolve("sub"));
    Files.writeString(source.resolve("hello.txt"), "hello, world\n");
    byte[] random = new byte[300_000];
    new Random(2).nextBytes(random);
    Files.write(source.resolve("sub/random.bin"), random);
    name = "r" + UUID.randomUUID().toString().replace("-", "");
    store = MemoryStores.get(name);
    cli = new Cli("vmem://" + name, "correct horse");
  }

  private Cli.Run run(String... args) {
    Cli.Run run = cli.run(args);
    return run;
  }

  private void init() {
    Cli.Run run =
        run(
            "repo",
            "init",
            "--kdf-memory",
            "64",
            "--kdf-iterations",
            "1",
            "--lock-mode",
            "compliance",
            "--min-retention",
            "1d");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("locked (compliance) for at least 1d");
  }

  private void snapshot(String... extra) {
    String[] args = new String[3 + extra.length];
    args[0] = "snapshot";
    args[1] = "create";
    args[2] = source.toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    Cli.Run run = run(args);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
  }

  /** Waits until the wall clock, which stamps the store's versions, is past {@code instant}. */
  private static Instant clockPast(Instant instant) {
    return Await.until("the clock past " + instant, Instant::now, now -> now.isAfter(instant));
  }

  @Test
  void retainLocksEveryBlobUntilTheExpiry() throws IOException {
    init();
    Instant before = Instant.now();
    snapshot("--retain", "90d");
    for (String blob : store.names()) {
      if (blob.startsWith("packs/") || blob.startsWith("snapshots/")) {
        Retention r = store.retention(blob);
        assertThat(r.mode()).isEqualTo(Retention.Mode.COMPLIANCE);
        assertThat(r.until()).isAfterOrEqualTo(before.plus(Duration.ofDays(90)));
      }
    }
    Cli.Run verify = run("verify", "--retention");
    assertThat(verify.exitCode()).as(verify.stderr()).isZero();
    assertThat(verify.stdout()).contains("retention: checked").contains(", 0 short");
  }

  @Test
  void restoreAsOfBeforeTheAttackAndFallbackWithWarnings() throws IOException {
    init();
    snapshot();
    Instant written =
        store.list("").stream().map(BlobInfo::created).max(Instant::compareTo).orElseThrow();
    Instant between = clockPast(written);
    clockPast(between);
    String beforeAttack = between.toString();
    String pack = null;
    for (String blob : store.names()) {
      if (blob.startsWith("packs/") || blob.startsWith("index/")) {
        store.overwrite(blob, new byte[] {6, 6, 6});
        pack = blob.startsWith("packs/") ? blob : pack;
      }
    }

    Cli.Run asOf =
        run(
            "restore",
            "latest:" + source,
            "--target",
            tmp.resolve("a").toString(),
            "--as-of",
            beforeAttack);
    assertThat(asOf.exitCode()).as(asOf.stderr()).isZero();
    assertThat(asOf.stderr()).doesNotContain("warning:");
    TreeAssert.assertSameTree(source, tmp.resolve("a"));

    Cli.Run fallback = run("restore", "latest:" + source, "--target", tmp.resolve("b").toString());
    assertThat(fallback.exitCode()).as(fallback.stderr()).isZero();
    TreeAssert.assertSameTree(source, tmp.resolve("b"));
    String attackedPack = pack;
    assertThat(fallback.errorLines())
        .anyMatch(
            l ->
                l.startsWith(
                    "warning: "
                        + attackedPack
                        + " failed verification at its current version; read version"));

    // Hidden snapshots: gone from the listing now, back as of before the attack.
    for (String blob : store.names()) {
      if (blob.startsWith("snapshots/")) {
        store.deleteMarker(blob);
      }
    }
    assertThat(run("snapshot", "list").stdout()).doesNotContain(source.toString());
    Cli.Run list = run("snapshot", "list", "--as-of", beforeAttack);
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).contains(source.toString());
    assertThat(run("ls", "latest:" + source, "--as-of", beforeAttack).stdout())
        .contains("hello.txt");
    assertThat(run("verify", "--as-of", beforeAttack).exitCode()).isZero();
    assertThat(run("verify").exitCode()).isEqualTo(ExitCode.DAMAGED);
  }

  @Test
  void asOfOnAStoreWithoutVersionsIsOneClearLine() throws IOException {
    Cli local = new Cli(tmp.resolve("repo").toString(), "correct horse");
    assertThat(local.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    Cli.Run run = local.run("snapshot", "list", "--as-of", "2030-01-01T00:00:00Z");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr())
        .startsWith("stele: point-in-time reads need a versioned store (S3 with versioning)");
    Cli.Run bad = local.run("snapshot", "list", "--as-of", "yesterday");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void verifyRetentionReportsShortBlobsUntilMaintenanceExtendsThem() throws IOException {
    init();
    snapshot("--retain", "30d");
    // A copy made by a tool that drops retention.
    String copyName = name + "copy";
    VersionedInMemoryBlobStore copy = MemoryStores.get(copyName);
    for (String blob : store.names()) {
      copy.create(blob, store.read(blob), Retention.NONE);
    }
    Cli copied = new Cli("vmem://" + copyName, "correct horse");
    Cli.Run audit = copied.run("verify", "--retention");
    assertThat(audit.exitCode()).isEqualTo(ExitCode.DAMAGED);
    assertThat(audit.errorLines())
        .anyMatch(l -> l.startsWith("retention: packs/") && l.contains("is retained not at all"))
        .anyMatch(l -> l.startsWith("retention: stele.format"));
    assertThat(copied.run("maintenance", "run").exitCode()).isZero();
    Cli.Run again = copied.run("verify", "--retention");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
  }

  @Test
  void lockModeNeedsAMinimumAndADurationParses() {
    Cli.Run run = run("repo", "init", "--lock-mode", "governance");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.stderr()).contains("needs --min-retention");
    Cli.Run bad = run("repo", "init", "--lock-mode", "governance", "--min-retention", "soon");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.stderr()).contains("not a duration");
  }
}
