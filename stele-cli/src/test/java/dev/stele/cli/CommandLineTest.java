package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandLineTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  Path repo;
  Path source;
  Cli cli;

  @BeforeEach
  void setUp() throws IOException {
    repo = tmp.resolve("repo");
    source = tmp.resolve("source");
    Cli.writeSampleSource(source);
    cli = new Cli(repo.toString(), "correct horse");
  }

  @Test
  void everyCommandIsFoundUnderTheNameItsAnnotationGives() {
    Main.commands().forEach((name, command) -> assertThat(nameOf(command)).isEqualTo(name));
    Main.restoreClusterCommands()
        .forEach((name, command) -> assertThat(nameOf(command)).isEqualTo(name));
    assertThat(Main.commands().keySet()).containsAll(Main.LOCAL_COMMANDS);

    // A run builds the branch it names; help builds them all, in the table's order.
    CliEnvironment env = Cli.environment();
    assertThat(Main.commandLine(env, "snapshot", "list").getSubcommands())
        .containsOnlyKeys("snapshot");
    assertThat(restoreBranch(Main.commandLine(env, "restore", "get"))).containsKey("get");
    assertThat(restoreBranch(Main.commandLine(env, "restore", "latest"))).doesNotContainKey("get");
    assertThat(Main.commandLine(env, "--help").getSubcommands().keySet())
        .containsExactlyElementsOf(Main.commands().keySet());
  }

  @Test
  void theRepositoryCommandsPrepareTheirOpenWhileTheyParse() {
    Preparation list = Preparation.start(new String[] {"--log-format", "json", "snapshot", "list"});
    Preparation backupGet = Preparation.start(new String[] {"backup", "get"});
    Preparation version = Preparation.start(new String[] {"--version"});
    list.join();

    assertThat(list.started()).isTrue();
    assertThat(backupGet.started()).isFalse();
    assertThat(version.started()).isFalse();
  }

  private static String nameOf(Class<?> command) {
    return command.getAnnotation(CommandLine.Command.class).name();
  }

  private static java.util.Map<String, CommandLine> restoreBranch(CommandLine cli) {
    return cli.getSubcommands().get("restore").getSubcommands();
  }

  private Cli.Run init() {
    return cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1");
  }

  private String createSnapshot(String... extra) throws IOException {
    String[] args =
        Stream.concat(
                Stream.of("snapshot", "create", source.toString(), "--json"), Stream.of(extra))
            .toArray(String[]::new);
    Cli.Run run = cli.run(args);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return JSON.readTree(run.stdout()).get("id").asText();
  }

  @Test
  void initCreateListLsCatRestoreRoundTripIsByteIdentical() throws IOException {
    assertThat(init().exitCode()).isZero();
    String id = createSnapshot("--tag", "first");

    Cli.Run list = cli.run("snapshot", "list", "--json");
    assertThat(list.exitCode()).isZero();
    JsonNode snapshots = JSON.readTree(list.stdout());
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).get("id").asText()).isEqualTo(id);
    assertThat(snapshots.get(0).get("tags").get(0).asText()).isEqualTo("first");
    assertThat(snapshots.get(0).get("stats").get("files").asLong()).isEqualTo(4);

    Cli.Run ls = cli.run("ls", "latest:" + source, "-r");
    assertThat(ls.exitCode()).isZero();
    assertThat(ls.stdout().lines())
        .containsExactly(
            source + "/hello.txt",
            source + "/link",
            source + "/sub",
            source + "/sub/deeper",
            source + "/sub/deeper/random.bin",
            source + "/sub/notes.txt");
    Cli.Run lsLong = cli.run("ls", id + ":" + source, "-l");
    assertThat(lsLong.stdout()).contains("-> hello.txt").contains("drwx");

    Cli.Run cat = cli.run("cat", "latest:" + source + "/sub/deeper/random.bin");
    assertThat(cat.exitCode()).isZero();
    assertThat(cat.stdoutBytes())
        .isEqualTo(Files.readAllBytes(source.resolve("sub/deeper/random.bin")));

    Path target = tmp.resolve("restored");
    Cli.Run restore = cli.run("restore", "latest:" + source, "--target", target.toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(TreeComparison.compare(source, target)).isEmpty();
  }

  @Test
  void wrongPasswordExitsThreeWithOneLineAndNoStackTrace() {
    init();
    Cli.Run run = cli.with("STELE_PASSWORD", "wrong").run("snapshot", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).startsWith("stele: wrong password").doesNotContain("\tat ");
  }

  @Test
  void debugShowsTheStackTrace() {
    init();
    Cli.Run run = cli.with("STELE_PASSWORD", "wrong").run("snapshot", "list", "--debug");
    assertThat(run.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(run.stderr()).contains("WrongPasswordException").contains("\tat ");
  }

  @Test
  void unknownSnapshotExitsFour() throws IOException {
    init();
    createSnapshot();
    Cli.Run run = cli.run("snapshot", "show", "ffffffff");
    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines()).containsExactly("stele: no snapshot ffffffff");
  }

  @Test
  void latestOfAnEmptyRepositoryExitsFour() {
    init();
    assertThat(cli.run("ls", "latest").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
  }

  @Test
  void pathNotInTheSnapshotExitsFour() throws IOException {
    init();
    createSnapshot();
    Cli.Run run = cli.run("cat", "latest:" + source + "/nope.txt");
    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("nope.txt").contains("not in the snapshot");
  }

  @Test
  void notARepositoryExitsFour() {
    Cli.Run run =
        cli.with("STELE_REPO", tmp.resolve("nothing-here").toString()).run("snapshot", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("is not a Stele repository");
  }

  @Test
  void initOnANonEmptyDirectoryIsRefused() throws IOException {
    Files.createDirectories(repo);
    Files.writeString(repo.resolve("precious.txt"), "do not touch");
    Cli.Run run = init();
    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("is not empty");
    assertThat(Files.readString(repo.resolve("precious.txt"))).isEqualTo("do not touch");
  }

  @Test
  void compressionLevelIsRecordedAtInitAndUsedByBackups() throws IOException {
    Files.writeString(source.resolve("text.txt"), "the same line again and again\n".repeat(20_000));
    assertThat(compressionLevelAfterBackup("stored", "--compression-level", "0")).isZero();
    assertThat(compressionLevelAfterBackup("smallest", "--compression-level", "19")).isEqualTo(19);
    assertThat(compressionLevelAfterBackup("default")).isEqualTo(3);
    assertThat(packBytes("stored")).isGreaterThan(packBytes("smallest") + 500_000);

    Cli.Run run =
        cli.run(
            "repo", "init", "--repo", tmp.resolve("bad").toString(), "--compression-level", "23");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: --compression-level 23 is not a zstd level: use 0 (none) to 22");
    assertThat(tmp.resolve("bad")).doesNotExist();
  }

  private int compressionLevelAfterBackup(String name, String... options) throws IOException {
    String where = tmp.resolve(name).toString();
    String[] args =
        Stream.concat(
                Stream.of(
                    "repo", "init", "--repo", where, "--kdf-memory", "64", "--kdf-iterations", "1"),
                Stream.of(options))
            .toArray(String[]::new);
    assertThat(cli.run(args).exitCode()).isZero();
    assertThat(cli.run("snapshot", "create", "--repo", where, source.toString()).exitCode())
        .isZero();
    JsonNode status = JSON.readTree(cli.run("repo", "status", "--repo", where, "--json").stdout());
    return status.get("format").get("compressionLevel").asInt();
  }

  private long packBytes(String name) throws IOException {
    return JSON.readTree(
            cli.run("repo", "status", "--repo", tmp.resolve(name).toString(), "--json").stdout())
        .get("packBytes")
        .asLong();
  }

  @Test
  void initTwiceIsRefused() {
    assertThat(init().exitCode()).isZero();
    assertThat(init().exitCode()).isEqualTo(ExitCode.ERROR);
  }

  @Test
  void latestAndUniqueIdPrefixesResolve() throws IOException {
    init();
    String first = createSnapshot();
    Files.writeString(source.resolve("hello.txt"), "changed\n");
    String second = createSnapshot();
    JsonNode latest = JSON.readTree(cli.run("snapshot", "show", "latest", "--json").stdout());
    assertThat(latest.get("id").asText()).isEqualTo(second);
    assertThat(latest.get("parent").asText()).isEqualTo(first);
    JsonNode byPrefix =
        JSON.readTree(cli.run("snapshot", "show", first.substring(0, 6), "--json").stdout());
    assertThat(byPrefix.get("id").asText()).isEqualTo(first);
    assertThat(cli.run("cat", first.substring(0, 8) + ":" + source + "/hello.txt").stdout())
        .isEqualTo("hello, world\n");
  }

  @Test
  void diffShowsChangedAddedAndRemovedFiles() throws IOException {
    init();
    String first = createSnapshot();
    Files.writeString(source.resolve("hello.txt"), "changed\n");
    Files.writeString(source.resolve("new.txt"), "new\n");
    Files.delete(source.resolve("sub/notes.txt"));
    String second = createSnapshot();
    Cli.Run diff = cli.run("snapshot", "diff", first, second);
    assertThat(diff.exitCode()).as(diff.stderr()).isZero();
    assertThat(diff.stdout())
        .contains("M " + source + "/hello.txt")
        .contains("+ " + source + "/new.txt")
        .contains("- " + source + "/sub/notes.txt");
  }

  @Test
  void forgottenSnapshotsAreNoLongerListed() throws IOException {
    init();
    String first = createSnapshot();
    String second = createSnapshot();
    String third = createSnapshot();
    assertThat(cli.run("snapshot", "forget", first.substring(0, 8)).exitCode()).isZero();
    assertThat(ids(cli.run("snapshot", "list", "--json"))).containsExactly(second, third);

    Cli.Run dry = cli.run("snapshot", "forget", "--keep-last", "1", "--dry-run");
    assertThat(dry.stdout()).contains("would forget " + second.substring(0, 8));
    assertThat(ids(cli.run("snapshot", "list", "--json"))).containsExactly(second, third);

    assertThat(cli.run("snapshot", "forget", "--keep-last", "1").exitCode()).isZero();
    assertThat(ids(cli.run("snapshot", "list", "--json"))).containsExactly(third);
  }

  @Test
  void forgetWithoutSnapshotsOrPolicyIsAUsageError() {
    init();
    assertThat(cli.run("snapshot", "forget").exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void listFiltersByHostAndTag() throws IOException {
    init();
    String tagged = createSnapshot("--tag", "keep", "--host", "alpha");
    createSnapshot("--host", "beta");
    assertThat(ids(cli.run("snapshot", "list", "--json", "--tag", "keep"))).containsExactly(tagged);
    assertThat(ids(cli.run("snapshot", "list", "--json", "--host", "alpha")))
        .containsExactly(tagged);
  }

  @Test
  void anAddedKeyOpensTheRepositoryAndCanBeRemoved() throws IOException {
    init();
    Cli.Run add =
        cli.with("STELE_NEW_PASSWORD", "second password")
            .run("repo", "keys", "add", "--kdf-memory", "64", "--kdf-iterations", "1");
    assertThat(add.exitCode()).as(add.stderr()).isZero();
    Cli other = new Cli(repo.toString(), "second password");
    assertThat(other.run("snapshot", "list").exitCode()).isZero();

    JsonNode keys = JSON.readTree(cli.run("repo", "keys", "list", "--json").stdout());
    assertThat(keys).hasSize(2);
    String secondKey = null;
    for (JsonNode k : keys) {
      if (!k.get("current").asBoolean()) {
        secondKey = k.get("id").asText();
      }
    }
    assertThat(cli.run("repo", "keys", "list").stdout()).contains("* ");

    Cli.Run remove = cli.run("repo", "keys", "remove", secondKey.substring(0, 10));
    assertThat(remove.exitCode()).as(remove.stderr()).isZero();
    Cli.Run lockedOut = other.run("snapshot", "list");
    assertThat(lockedOut.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(lockedOut.stderr()).contains("removed");
  }

  @Test
  void removingTheKeyInUseIsRefused() throws IOException {
    init();
    JsonNode keys = JSON.readTree(cli.run("repo", "keys", "list", "--json").stdout());
    Cli.Run run = cli.run("repo", "keys", "remove", keys.get(0).get("id").asText());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("in use");
    assertThat(cli.run("snapshot", "list").exitCode()).isZero();
  }

  @Test
  void passwordsComeFromAFileOrTheTerminal() throws IOException {
    init();
    Path file = tmp.resolve("password");
    Files.writeString(file, "correct horse\n");
    cli.with("STELE_PASSWORD", "wrong");
    assertThat(cli.run("snapshot", "list", "--password-file", file.toString()).exitCode()).isZero();

    cli.with("STELE_PASSWORD", null);
    Cli.Run none = cli.run("snapshot", "list");
    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(none.errorLines())
        .containsExactly(
            "stele: no password: set STELE_PASSWORD, use --password-file, or run on a terminal");

    cli.terminal = true;
    cli.typed.add("correct horse");
    assertThat(cli.run("snapshot", "list").exitCode()).isZero();
  }

  @Test
  void jsonOutputsParse() throws IOException {
    init();
    createSnapshot();
    for (String[] args :
        List.of(
            new String[] {"snapshot", "list", "--json"},
            new String[] {"snapshot", "show", "latest", "--json"},
            new String[] {"repo", "status", "--json"},
            new String[] {"repo", "keys", "list", "--json"})) {
      Cli.Run run = cli.run(args);
      assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.stderr()).isZero();
      // readTree answers a MissingNode, not null, for empty output: check for a non-empty value.
      JsonNode json = JSON.readTree(run.stdout());
      assertThat(json.isContainerNode()).as(String.join(" ", args) + ": " + run.stdout()).isTrue();
      assertThat(json.size()).as(String.join(" ", args)).isPositive();
    }
    JsonNode status = JSON.readTree(cli.run("repo", "status", "--json").stdout());
    assertThat(status.get("snapshots").asInt()).isEqualTo(1);
  }

  @Test
  void missingSourceExitsFour() {
    init();
    Cli.Run run = cli.run("snapshot", "create", tmp.resolve("missing").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("missing");
  }

  @Test
  void unknownSchemesAreNotAvailableInThisBuild() {
    Cli.Run run = cli.with("STELE_REPO", "gs://bucket/prefix").run("snapshot", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: gs repositories are not available in this build");
  }

  @Test
  void badS3LocationIsAUsageError() {
    Cli.Run run = cli.with("STELE_REPO", "s3://Not_A_Bucket/prefix").run("snapshot", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines()).containsExactly("stele: not an S3 bucket name: Not_A_Bucket");
  }

  @Test
  void noRepositoryIsAUsageError() {
    Cli.Run run = cli.with("STELE_REPO", null).run("snapshot", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: no repository: give --repo or set STELE_REPO");
  }

  @Test
  void everyCommandAnswersHelp() {
    for (String[] command :
        List.of(
            new String[] {"repo", "init"},
            new String[] {"repo", "keys", "add"},
            new String[] {"snapshot", "create"},
            new String[] {"restore"},
            new String[] {"verify"},
            new String[] {"repair"},
            new String[] {"maintenance", "run"})) {
      List<String> args = new java.util.ArrayList<>(List.of(command));
      args.add("--help");
      Cli.Run run = cli.run(args.toArray(String[]::new));
      assertThat(run.exitCode()).as(String.join(" ", args)).isZero();
      assertThat(run.stdout()).as(String.join(" ", args)).contains("Usage: stele " + command[0]);
    }
  }

  @Test
  void steleAloneListsTheCommandsOnStandardErrorAsAUsageError() {
    Cli.Run run = cli.run();
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).startsWith("Usage: stele").contains("snapshot", "node-agent");
  }

  @Test
  void helpListsEveryCommandAndVersionNeedsNone() {
    Cli.Run help = cli.run("--debug", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.stdout()).contains("repo", "snapshot", "verify", "install", "node-agent");
    Cli.Run version = cli.run("--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.stdout()).startsWith("stele ");
  }

  @Test
  void aRunBuildsOnlyTheCommandItNamesAndTheWholeTreeOtherwise() {
    CommandLine named = Main.commandLine(Cli.environment(), "--log-format", "text", "snapshot");
    assertThat(named.getSubcommands()).containsOnlyKeys("snapshot");
    assertThat(named.getSubcommands().get("snapshot").getSubcommands()).containsKey("list");
    assertThat(Main.commandLine(Cli.environment(), "--version").getSubcommands()).isEmpty();
    assertThat(Main.commandLine(Cli.environment(), "-v", "--help").getSubcommands())
        .containsKeys("repo", "snapshot", "restore-wait");
    assertThat(Main.commandLine(Cli.environment(), "snapshto").getSubcommands())
        .containsKeys("repo", "snapshot", "restore-wait");
  }

  @Test
  void anUnknownCommandIsAUsageErrorOnOneLine() {
    Cli.Run run = cli.run("snapshto", "list");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: Unmatched arguments from index 0: 'snapshto', 'list' (see 'stele --help')");
  }

  @Test
  void unknownOptionIsAUsageErrorOnOneLine() {
    Cli.Run run = cli.run("snapshot", "list", "--frobnicate");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("--frobnicate").contains("stele snapshot list --help");
  }

  @Test
  void verifyPassesThenReportsACorruptedPack() throws IOException {
    init();
    createSnapshot();
    Cli.Run ok = cli.run("verify", "--read-data");
    assertThat(ok.exitCode()).as(ok.stderr()).isZero();

    Path pack = corruptOnePack();
    Cli.Run bad = cli.run("verify", "--read-data");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.DAMAGED);
    assertThat(bad.stderr()).contains(pack.getFileName().toString()).doesNotContain("\tat ");
  }

  @Test
  void catOfACorruptedChunkNamesTheBlobAndExitsFive() throws IOException {
    init();
    createSnapshot();
    Path pack = corruptOnePack();
    Cli.Run run = cli.run("cat", "latest:" + source + "/sub/deeper/random.bin");
    assertThat(run.exitCode()).isEqualTo(ExitCode.DAMAGED);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr()).contains("corrupted blob").contains(pack.getFileName().toString());
  }

  @Test
  void maintenanceRunsAfterForget() throws IOException {
    init();
    String id = createSnapshot();
    cli.run("snapshot", "forget", id);
    Cli.Run dry = cli.run("maintenance", "run", "--dry-run");
    assertThat(dry.exitCode()).as(dry.stderr()).isZero();
    Cli.Run run = cli.run("maintenance", "run");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("packs marked");
  }

  @Test
  void demoRoundTripPasses() {
    Cli.Run run = new Cli("", "").run("demo", "--quick");
    assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
    assertThat(run.stdout()).contains("identical").contains("demo passed");
  }

  @Test
  void groupCommandsAloneShowUsage() {
    Cli.Run run = cli.run("snapshot");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.stderr()).contains("create").contains("forget");
  }

  @Test
  void aDamagedSnapshotIsListedAsDamagedAndCanBeForgotten() throws IOException {
    init();
    String good = createSnapshot();
    String bad = createSnapshot();
    flipMiddleByte(blobFile("snapshots", bad));

    Cli.Run list = cli.run("snapshot", "list");
    assertThat(list.exitCode()).as(list.stderr()).isEqualTo(ExitCode.DAMAGED);
    assertThat(list.stdout().lines().filter(l -> l.startsWith(bad.substring(0, 8))))
        .singleElement()
        .asString()
        .contains("DAMAGED")
        .contains("snapshots/" + bad)
        .contains("snapshot forget " + bad);
    assertThat(list.stdout()).contains(good.substring(0, 8)).contains("1 snapshot");
    assertThat(list.stderr()).doesNotContain("\tat ");
    Cli.Run json = cli.run("snapshot", "list", "--json");
    assertThat(json.exitCode()).isEqualTo(ExitCode.DAMAGED);
    JsonNode entries = JSON.readTree(json.stdout());
    assertThat(entries.findValues("id").stream().map(JsonNode::asText)).containsExactly(good, bad);
    assertThat(entries.get(1).get("damaged").asText()).contains("snapshots/" + bad);

    Cli.Run restore = cli.run("restore", good, "--target", tmp.resolve("out").toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    Cli.Run damaged = cli.run("restore", bad, "--target", tmp.resolve("out2").toString());
    assertThat(damaged.exitCode()).isEqualTo(ExitCode.DAMAGED);
    assertThat(damaged.errorLines()).singleElement().asString().contains("snapshots/" + bad);
    createSnapshot();
    Cli.Run maintenance = cli.run("maintenance", "run");
    assertThat(maintenance.exitCode()).as(maintenance.stderr()).isZero();
    assertThat(maintenance.stdout()).contains("held back: ").contains("snapshots/" + bad);

    Cli.Run forget = cli.run("snapshot", "forget", bad);
    assertThat(forget.exitCode()).as(forget.stderr()).isZero();
    assertThat(forget.stdout()).contains("forgot " + bad.substring(0, 8) + "  (damaged manifest)");
    Cli.Run after = cli.run("snapshot", "list");
    assertThat(after.exitCode()).as(after.stderr()).isZero();
    assertThat(after.stdout()).doesNotContain("DAMAGED").contains("2 snapshots");
    assertThat(cli.run("maintenance", "run").stdout()).doesNotContain("held back");
  }

  /** The file of blob {@code <family>/<name>} in the repository directory. */
  private Path blobFile(String family, String name) throws IOException {
    try (Stream<Path> files = Files.walk(repo.resolve(family))) {
      return files.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow();
    }
  }

  private List<String> ids(Cli.Run run) throws IOException {
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return JSON.readTree(run.stdout()).findValues("id").stream().map(JsonNode::asText).toList();
  }

  /** Flips one byte in the middle of the largest pack (the one holding random.bin). */
  private Path corruptOnePack() throws IOException {
    Path pack;
    try (Stream<Path> files = Files.walk(repo.resolve("packs"))) {
      pack =
          files
              .filter(Files::isRegularFile)
              .max(java.util.Comparator.comparingLong(p -> p.toFile().length()))
              .orElseThrow();
    }
    flipMiddleByte(pack);
    return pack;
  }

  /** Flips one byte a third of the way into {@code file}, bypassing write-once. */
  private static void flipMiddleByte(Path file) throws IOException {
    file.toFile().setWritable(true);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      long middle = f.length() / 3;
      f.seek(middle);
      int b = f.read();
      f.seek(middle);
      f.write(b ^ 0xff);
    }
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
