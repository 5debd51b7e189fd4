package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.repo.Repository;
import dev.stele.server.RepositoryServer;
import dev.stele.server.ServerOptions;
import dev.stele.testing.Await;
import dev.stele.testing.TreeAssert;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reading commands through a real {@link RepositoryServer}: the same output and exit codes as
 * against the repository for an admin, only their own snapshots for a restricted user, and one
 * clear line for a wrong fingerprint or password.
 */
class ServerClientCommandTest {
  private static final String PASSWORD = "correct horse";
  private static final Pattern ID = Pattern.compile("(?m)^([0-9a-f]{8})  ");

  @TempDir Path tmp;
  private Cli direct;
  private Repository repo;
  private RepositoryServer server;
  private String url;
  private Path shopDir;
  private final ByteArrayOutputStream audit = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws Exception {
    Path repoDir = tmp.resolve("repo");
    direct = new Cli(repoDir.toString(), PASSWORD);
    assertThat(direct.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    shopDir = tmp.resolve("shop");
    Cli.writeSampleSource(shopDir);
    Path other = Files.createDirectories(tmp.resolve("other"));
    Files.writeString(other.resolve("secret.txt"), "not alice's\n");
    assertThat(direct.run("snapshot", "create", "--host", "shop", shopDir.toString()).exitCode())
        .isZero();
    assertThat(direct.run("snapshot", "create", "--host", "other", other.toString()).exitCode())
        .isZero();
    ServerCommandTest.certificate(tmp);
    Path users = Files.createDirectories(tmp.resolve("users"));
    Files.writeString(users.resolve("carol"), "carol-pw");
    Files.writeString(users.resolve("alice"), "alice-pw");
    Files.writeString(
        tmp.resolve("access.json"),
        "{\"admins\": [\"carol\"], \"rules\": [{\"users\": [\"alice\"], \"hosts\": [\"shop\"]}]}");
    Clock clock = Clock.systemUTC();
    repo = Repository.open(new FilesystemBlobStore(repoDir, clock), PASSWORD.toCharArray(), clock);
    server =
        RepositoryServer.start(
            repo,
            ServerOptions.of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                tmp.resolve("tls.crt"),
                tmp.resolve("tls.key"),
                users,
                tmp.resolve("access.json"),
                new PrintStream(audit, true, StandardCharsets.UTF_8)));
    url = "https://localhost:" + server.address().getPort();
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
    repo.close();
  }

  private Cli as(String user, String password) {
    return new Cli(url, password).with("STELE_USER", user).with("STELE_PASSWORD", password);
  }

  private String[] pinned(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--server-cert-fingerprint";
    all[args.length + 1] = server.fingerprint();
    return all;
  }

  private static String idOf(String listing, int index) {
    Matcher m = ID.matcher(listing);
    for (int i = 0; i <= index; i++) {
      assertThat(m.find()).as(listing).isTrue();
    }
    return m.group(1);
  }

  /** Runs {@code args} directly (which must exit {@code exit}) and through the server. */
  private void sameOutput(int exit, Cli through, String... args) {
    Cli.Run expected = direct.run(args);
    assertThat(expected.exitCode()).as(expected.stderr()).isEqualTo(exit);
    Cli.Run actual = through.run(pinned(args));
    assertThat(actual.stderr()).isEqualTo(expected.stderr());
    assertThat(actual.stdout()).isEqualTo(expected.stdout());
    assertThat(actual.exitCode()).isEqualTo(expected.exitCode());
  }

  @Test
  void anAdminSeesWhatTheRepositoryShows() {
    Cli carol = as("carol", "carol-pw");
    String list = direct.run("snapshot", "list").stdout();
    String shop = idOf(list, 0);
    String at = shop + ":" + shopDir;
    sameOutput(ExitCode.OK, carol, "snapshot", "list");
    sameOutput(ExitCode.OK, carol, "snapshot", "list", "--json");
    sameOutput(ExitCode.OK, carol, "snapshot", "list", "--host", "other");
    sameOutput(ExitCode.OK, carol, "ls", "-l", "-r", shop);
    sameOutput(ExitCode.OK, carol, "ls", "--json", at + "/sub");
    sameOutput(ExitCode.OK, carol, "ls", "latest");
    sameOutput(ExitCode.OK, carol, "cat", at + "/sub/deeper/random.bin");
    sameOutput(ExitCode.OK, carol, "cat", at + "/hello.txt");
    sameOutput(ExitCode.NOT_FOUND, carol, "ls", at + "/missing");
    sameOutput(ExitCode.ERROR, carol, "cat", at + "/sub");
    sameOutput(ExitCode.NOT_FOUND, carol, "ls", "ffffffff");
  }

  @Test
  void findAndDiffPrintThroughTheServerWhatTheyPrintDirectly() {
    Cli carol = as("carol", "carol-pw");
    String list = direct.run("snapshot", "list").stdout();
    String shop = idOf(list, 0);
    String other = idOf(list, 1);
    sameOutput(ExitCode.OK, carol, "find", "*.txt");
    sameOutput(ExitCode.OK, carol, "find", "-i", "--json", "*.TXT", "**/deeper/*");
    sameOutput(ExitCode.OK, carol, "find", "--host", "shop", "--newest-first", "--limit", "2", "*");
    sameOutput(ExitCode.OK, carol, "find", "--history", shopDir + "/hello.txt");
    sameOutput(ExitCode.OK, carol, "snapshot", "diff", shop, other);
    sameOutput(ExitCode.NOT_FOUND, carol, "snapshot", "diff", shop, "ffffffff");
    assertThat(direct.run("find", "*.txt").stdout())
        .contains("Found matching entries in snapshot " + shop, "/hello.txt", "/secret.txt");

    Cli alice = as("alice", "alice-pw");
    assertThat(alice.run(pinned("find", "*.txt")).stdout())
        .contains("/hello.txt")
        .doesNotContain("secret");
    Cli.Run theirs = alice.run(pinned("snapshot", "diff", shop, other));
    assertThat(theirs.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(theirs.errorLines()).containsExactly("stele: no snapshot " + other);
  }

  @Test
  void aRestrictedUserSeesOnlyTheirs() {
    String list = direct.run("snapshot", "list").stdout();
    String shop = idOf(list, 0);
    String other = idOf(list, 1);
    Cli alice = as("alice", "alice-pw");
    Cli.Run mine = alice.run(pinned("snapshot", "list"));
    assertThat(mine.exitCode()).isZero();
    assertThat(mine.stdout()).contains(shop).doesNotContain(other).endsWith("1 snapshot\n");
    assertThat(alice.run(pinned("cat", shop + ":" + shopDir + "/hello.txt")).stdout())
        .isEqualTo("hello, world\n");
    Cli.Run theirs = alice.run(pinned("cat", other + ":/secret.txt"));
    assertThat(theirs.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(theirs.errorLines()).containsExactly("stele: no snapshot " + other);
    assertThat(theirs.stdout()).isEmpty();
    // Each command ends its session rather than leaving it open on the server (whose audit line
    // is written just after the answer).
    List<String> actions =
        Await.until(
            "three logouts in the audit log",
            () ->
                audit
                    .toString(StandardCharsets.UTF_8)
                    .lines()
                    .map(l -> l.replaceAll(".*\"action\":\"([a-z]+)\".*", "$1"))
                    .toList(),
            a -> a.stream().filter("logout"::equals).count() == 3);
    assertThat(actions).filteredOn("login"::equals).hasSize(3);
  }

  @Test
  void thePasswordMayBeTypedAtTheTerminal() {
    Cli alice = as("alice", "unused").with("STELE_PASSWORD", null);
    alice.terminal = true;
    alice.typed.push("alice-pw");
    Cli.Run run = alice.run(pinned("snapshot", "list"));
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout()).endsWith("1 snapshot\n");
  }

  @Test
  void aCaCertificateServesInsteadOfAPin() {
    Cli.Run run =
        as("alice", "alice-pw")
            .run("snapshot", "list", "--ca-cert", tmp.resolve("tls.crt").toString());
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout()).endsWith("1 snapshot\n");
  }

  @Test
  void anotherCertificateIsRefusedNamingTheOneSeen() {
    String wrong = "sha256:" + "0".repeat(64);
    Cli.Run run =
        as("carol", "carol-pw").run("snapshot", "list", "--server-cert-fingerprint", wrong);
    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: server localhost:"
                + server.address().getPort()
                + " presented certificate "
                + server.fingerprint()
                + ", not the pinned "
                + wrong
                + ": refused");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void aWrongPasswordIsOneLineAndExitThree() {
    Cli.Run run = as("carol", "not carol's").run(pinned("snapshot", "list"));
    assertThat(run.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(run.errorLines()).containsExactly("stele: server: wrong user or password");
  }

  @Test
  void aServerNeedsAUserAndATrust() {
    Cli.Run noUser =
        as("carol", "carol-pw").with("STELE_USER", null).run(pinned("snapshot", "list"));
    assertThat(noUser.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noUser.errorLines())
        .containsExactly("stele: a repository server needs a user: give --user or set STELE_USER");
    Cli.Run noTrust = as("carol", "carol-pw").run("snapshot", "list");
    assertThat(noTrust.exitCode()).isEqualTo(ExitCode.USAGE);
    Cli.Run verify = as("carol", "carol-pw").run(pinned("verify"));
    assertThat(verify.exitCode()).isEqualTo(ExitCode.USAGE);
  }

  /** A restore's output with its timing taken out, which differs from run to run. */
  private static String untimed(String out) {
    return out.replaceAll(" in [0-9.]+ ?\\S* \\([^)]*\\)\n", " in T\n");
  }

  /** Restores {@code args} directly into {@code a} and through the server into {@code b}. */
  private void sameRestore(Cli through, String ref, Path a, Path b) {
    Cli.Run expected = direct.run("restore", ref, "--target", a.toString());
    Cli.Run actual = through.run(pinned("restore", ref, "--target", b.toString()));
    assertThat(actual.stderr()).isEqualTo(expected.stderr());
    assertThat(untimed(actual.stdout()).replace(b.toString(), a.toString()))
        .isEqualTo(untimed(expected.stdout()));
    assertThat(actual.exitCode()).isEqualTo(expected.exitCode()).isZero();
    TreeAssert.assertSameTree(a, b);
  }

  @Test
  void anAdminsRestoreThroughTheServerIsTheDirectOne() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("rich/data"));
    byte[] random = new byte[3_000_000];
    new Random(7).nextBytes(random);
    Files.write(src.resolve("big.bin"), random);
    Files.write(src.resolve("copy.bin"), random); // the same chunks in two files
    Files.createLink(src.resolve("hard.bin"), src.resolve("big.bin"));
    Files.write(src.resolve("empty"), new byte[0]);
    Files.write(src.resolve("sparse"), new byte[200_000]);
    Files.createDirectories(src.resolve("nested/empty-dir"));
    Files.writeString(src.resolve("nested/script.sh"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(
        src.resolve("nested/script.sh"), PosixFilePermissions.fromString("rwxr-x---"));
    Files.createSymbolicLink(src.resolve("nested/up"), Path.of("../big.bin"));
    Files.setLastModifiedTime(src.resolve("nested"), FileTime.fromMillis(1_000_000_000_000L));
    assertThat(direct.run("snapshot", "create", "--host", "rich", src.toString()).exitCode())
        .isZero();
    Cli carol = as("carol", "carol-pw");
    sameRestore(carol, "latest", tmp.resolve("a"), tmp.resolve("b"));
    TreeAssert.assertSameTree(src, tmp.resolve("b").resolve(src.toString().substring(1)));
    sameRestore(carol, "latest:" + src + "/nested", tmp.resolve("c"), tmp.resolve("d"));
    sameRestore(carol, "latest:" + src + "/big.bin", tmp.resolve("e"), tmp.resolve("f"));
    assertThat(Files.readAllBytes(tmp.resolve("f/big.bin"))).isEqualTo(random);
    assertThat(audit.toString(StandardCharsets.UTF_8)).contains("\"action\":\"chunks\"");
  }

  @Test
  void aRestrictedUserRestoresOnlyTheirs() throws Exception {
    String list = direct.run("snapshot", "list").stdout();
    String shop = idOf(list, 0);
    String other = idOf(list, 1);
    Cli alice = as("alice", "alice-pw");
    sameRestore(alice, shop + ":" + shopDir, tmp.resolve("a"), tmp.resolve("b"));
    TreeAssert.assertSameTree(shopDir, tmp.resolve("b"));
    Path target = tmp.resolve("theirs");
    Cli.Run theirs = alice.run(pinned("restore", other, "--target", target.toString()));
    assertThat(theirs.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(theirs.errorLines()).containsExactly("stele: no snapshot " + other);
    assertThat(target).doesNotExist();
  }

  @Test
  void aLinkInTheTargetIsReplacedNotFollowedAsDirectly() throws Exception {
    String shop = idOf(direct.run("snapshot", "list").stdout(), 0);
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    for (String t : List.of("a", "b")) {
      Files.createDirectories(tmp.resolve(t));
      Files.createSymbolicLink(tmp.resolve(t).resolve("sub"), outside);
    }
    sameRestore(as("alice", "alice-pw"), shop + ":" + shopDir, tmp.resolve("a"), tmp.resolve("b"));
    assertThat(Files.isSymbolicLink(tmp.resolve("b/sub"))).isFalse();
    assertThat(tmp.resolve("b/sub/notes.txt")).hasContent("notes\n".repeat(1000));
    try (var left = Files.list(outside)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aSavedConnectionServesLaterCommandsUntilDisconnected() throws Exception {
    Path config = tmp.resolve("config");
    Path file = config.resolve("stele/server.json");
    Cli alice =
        as("alice", "alice-pw")
            .with("STELE_REPO", null)
            .with("STELE_USER", null)
            .with("XDG_CONFIG_HOME", config.toString());
    String[] connect = {
      "repo", "connect", url, "--user", "alice", "--server-cert-fingerprint", server.fingerprint()
    };
    Cli.Run wrong = alice.with("STELE_PASSWORD", "not alice's").run(connect);
    assertThat(wrong.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(file).doesNotExist();

    Cli.Run connected = alice.with("STELE_PASSWORD", "alice-pw").run(connect);
    assertThat(connected.stderr()).isEmpty();
    assertThat(connected.stdout())
        .isEqualTo("connected to " + url + " as alice; saved in " + file + "\n");
    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readString(file)).contains(server.fingerprint()).doesNotContain("alice-pw");

    Cli.Run list = alice.run("snapshot", "list");
    assertThat(list.stderr()).isEmpty();
    assertThat(list.stdout()).endsWith("1 snapshot\n");
    // A flag still wins over what was saved.
    assertThat(alice.run("snapshot", "list", "--user", "carol").exitCode())
        .isEqualTo(ExitCode.WRONG_PASSWORD);

    Cli.Run disconnected = alice.run("repo", "disconnect");
    assertThat(disconnected.stdout()).isEqualTo("disconnected from " + url + "\n");
    assertThat(file).doesNotExist();
    assertThat(alice.run("snapshot", "list").stdout()).doesNotContain("snapshot");
    assertThat(alice.run("repo", "disconnect").stdout()).isEqualTo("not connected\n");
  }
}
