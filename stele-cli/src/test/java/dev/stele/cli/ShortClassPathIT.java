package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.Rgw;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher runs the commands on a local repository on the distribution's short class path
 * ({@code lib/} without {@code lib/remote/}), and they work there: each command of {@link
 * Main#LOCAL_COMMANDS} is run through the {@code stele} launcher on the distribution this build
 * packaged, on a local repository, its error paths too, and must neither fail for a missing class
 * nor run on the whole path. So must the commands on an {@code s3://} repository whose keys and
 * region are given, on Ceph RGW. Help, the cluster commands and any other repository named by a URL
 * must get the whole path. Each run must map the class-data archive made for its kind of command:
 * one the JVM cannot map (a class path that differs from the one it was made on) is dropped
 * silently, and the command starts without any.
 */
class ShortClassPathIT {
  // failsafe runs in the module's directory, stele-cli
  private static final Path CHECKOUT = Path.of("").toAbsolutePath().getParent();

  @TempDir static Path tmp;
  static Path repo;
  static Path source;

  /** What a run printed; the JVM's listing of its settings, the class path's jars among them. */
  record Run(int code, String out, String err) {
    boolean onShortPath() {
      return StartLog.onShortPath(err);
    }

    String archive() {
      return StartLog.archive(err);
    }
  }

  /** The commands (their first word) this test ran on the short path, with exit 0. */
  private static final Set<String> ranShort = new HashSet<>();

  @BeforeAll
  static void aRepositoryWithOneSnapshot() throws Exception {
    repo = tmp.resolve("repo");
    source = Files.createDirectories(tmp.resolve("source/etc"));
    Files.writeString(source.resolve("hosts"), "127.0.0.1 localhost\n");
    Files.write(source.resolve("blob"), new byte[300_000]);
    source = source.getParent();
    shortOk("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1");
    shortOk("snapshot", "create", source.toString());
  }

  @Test
  void everyLocalCommandRunsOnTheShortPath() throws Exception {
    assertThat(shortOk("--version").out()).startsWith("stele ");
    assertThat(shortOk("snapshot", "list").out()).contains(source.toString());
    shortOk("snapshot", "show", "latest");
    assertThat(shortOk("ls", "latest:" + source).out()).contains("etc");
    assertThat(shortOk("find", "hosts").out()).contains("hosts");
    assertThat(shortOk("cat", "latest:" + source + "/etc/hosts").out())
        .isEqualTo("127.0.0.1 localhost\n");
    Path target = tmp.resolve("restored");
    shortOk("restore", "latest:" + source, "--target", target.toString());
    assertThat(target.resolve("etc/hosts")).hasContent("127.0.0.1 localhost");
    assertThat(shortOk("verify", "--read-data").out()).contains("no problems found");
    shortOk("repair");
    shortOk("maintenance", "run");
    shortOk("repo", "status");
    shortOk("repo", "keys", "list");
    shortOk("bench", "open");
    shortOk("snapshot", "forget", "--keep-last", "1", "--dry-run");
    shortOk("demo", "--quick", "--dir", tmp.resolve("demo").toString());

    List<String> local = Main.LOCAL_COMMANDS;
    assertThat(ranShort).as("commands this test ran on the short path").containsAll(local);
  }

  @Test
  void anS3RepositoryWithItsKeysAndRegionRunsOnTheShortPath() throws Exception {
    Rgw rgw = Rgw.shared();
    Map<String, String> s3 = new HashMap<>();
    s3.put("STELE_REPO", "s3://" + RgwBuckets.create("short-", true) + "/repo");
    s3.put("STELE_S3_ENDPOINT", rgw.endpoint().toString());
    s3.put("STELE_S3_PATH_STYLE", "true");
    s3.put("AWS_ACCESS_KEY_ID", rgw.accessKey());
    s3.put("AWS_SECRET_ACCESS_KEY", rgw.secretKey());
    s3.put("AWS_REGION", "");
    s3.put("STELE_S3_REGION", "");
    String[] region = {"--region", rgw.region()};
    s3ShortOk(
        s3,
        "repo",
        "init",
        "--kdf-memory",
        "64",
        "--kdf-iterations",
        "1",
        region[0],
        region[1],
        "--lock-mode",
        "governance",
        "--min-retention",
        "1m");
    s3.put("STELE_S3_REGION", rgw.region());
    s3ShortOk(s3, "snapshot", "create", source.toString());
    assertThat(s3ShortOk(s3, "snapshot", "list").out()).contains(source.toString());
    assertThat(s3ShortOk(s3, "cat", "latest:" + source + "/etc/hosts").out())
        .isEqualTo("127.0.0.1 localhost\n");
    Path target = tmp.resolve("restored-from-s3");
    s3ShortOk(s3, "restore", "latest:" + source, "--target", target.toString());
    assertThat(target.resolve("etc/hosts")).hasContent("127.0.0.1 localhost");
    assertThat(s3ShortOk(s3, "verify", "--read-data").out()).contains("no problems found");

    // Where the AWS SDK would have to find the region or the keys, it is on the class path.
    s3.put("STELE_S3_REGION", "");
    Run noRegion = launch(s3, "snapshot", "list");
    assertThat(noRegion.onShortPath()).isFalse();
    assertThat(noRegion.err()).doesNotContain("NoClassDefFoundError");
    assertThat(noRegion.archive()).isEqualTo("stele-s3.jsa");
    Run profile = launch(s3, "snapshot", "list", "--profile", "none", region[0], region[1]);
    assertThat(profile.onShortPath()).isFalse();
    assertThat(profile.err()).doesNotContain("NoClassDefFoundError").contains("no AWS credentials");
    assertThat(profile.archive()).isEqualTo("stele-s3.jsa");
  }

  private static Run s3ShortOk(Map<String, String> env, String... args) throws Exception {
    Run run = launch(env, args);
    assertThat(run.err()).as("stele %s", String.join(" ", args)).doesNotContain("NoClassDef");
    assertThat(run.code()).as("stele %s: %s", String.join(" ", args), run.err()).isZero();
    assertThat(run.onShortPath()).as("stele %s ran on the short path", args[0]).isTrue();
    assertThat(run.archive()).as("stele %s", args[0]).isEqualTo("stele-s3.jsa");
    return run;
  }

  @Test
  void errorsOnTheShortPathAreOneLine() throws Exception {
    Run wrongPassword = launch(Map.of("STELE_PASSWORD", "wrong"), "snapshot", "list");
    assertThat(wrongPassword.onShortPath()).isTrue();
    assertThat(wrongPassword.code()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(stele(wrongPassword.err())).hasSize(1);

    Run missing = launch(Map.of(), "verify", "--repo", tmp.resolve("nothing").toString());
    assertThat(missing.onShortPath()).isTrue();
    assertThat(missing.code()).isNotZero();
    assertThat(stele(missing.err())).hasSize(1);
    assertThat(missing.err()).doesNotContain("NoClassDefFoundError", "Exception");
  }

  @Test
  void helpClusterCommandsAndUrlsGetTheWholePath() throws Exception {
    for (List<String> args :
        List.of(
            List.of("--help"),
            List.of("restore", "--help"),
            List.of("restore", "create", "--help"),
            List.of("backup", "get", "--help"))) {
      Run run = launch(Map.of(), args.toArray(String[]::new));
      assertThat(run.onShortPath()).as("%s", args).isFalse();
      assertThat(run.code()).as("%s: %s", args, run.err()).isZero();
      assertThat(run.archive()).as("%s", args).isEqualTo("stele-cluster.jsa");
    }
    assertThat(launch(Map.of(), "restore", "--help").out()).contains("create", "describe");
    Run cluster = launch(Map.of(), "backup", "get", "--kubeconfig", tmp.resolve("none").toString());
    assertThat(cluster.onShortPath()).isFalse();
    assertThat(cluster.err()).doesNotContain("NoClassDefFoundError");
    assertThat(cluster.archive()).isEqualTo("stele-cluster.jsa");
    Run s3 =
        launch(
            Map.of("AWS_ACCESS_KEY_ID", ""),
            "snapshot",
            "list",
            "--repo",
            "s3://bucket/r",
            "--endpoint",
            "http://[::1]:1");
    assertThat(s3.onShortPath()).isFalse();
    assertThat(s3.err()).doesNotContain("NoClassDefFoundError");
    assertThat(s3.archive()).isEqualTo("stele-s3.jsa");
  }

  /**
   * picocli's classes come from each kind of command's archive, {@code CommandLine} among them:
   * they are Java 5 class files, which the archive dump leaves out once it has had to link them, as
   * it does for a lambda typed by one of their interfaces ({@code Main.Handlers}).
   */
  @Test
  void picocliComesFromTheArchive() throws Exception {
    Map<String, String> classLog =
        Map.of("STELE_JAVA_OPTS", StartLog.OPTIONS + " -Xlog:class+load=info:stderr");
    String kubeconfig = tmp.resolve("none").toString();
    for (List<String> args :
        List.of(
            List.of("--version"),
            List.of("snapshot", "list"),
            List.of("backup", "get", "--kubeconfig", kubeconfig))) {
      Run run = launch(classLog, args.toArray(String[]::new));
      List<String> picocli =
          run.err().lines().filter(l -> l.contains("[class,load] picocli.")).toList();
      assertThat(picocli).as("%s", args).anyMatch(l -> l.contains(" picocli.CommandLine source:"));
      assertThat(picocli)
          .as("%s: picocli's classes from the %s archive", args, run.archive())
          .allMatch(l -> l.endsWith(" source: shared objects file"));
    }
  }

  /** The lines of {@code err} that are Stele's own, after the JVM's settings listing. */
  private static List<String> stele(String err) {
    return err.lines().filter(l -> l.startsWith("stele:")).toList();
  }

  private static Run shortOk(String... args) throws Exception {
    Run run = launch(Map.of(), args);
    assertThat(run.err()).as("stele %s", String.join(" ", args)).doesNotContain("NoClassDef");
    assertThat(run.code()).as("stele %s: %s", String.join(" ", args), run.err()).isZero();
    assertThat(run.onShortPath()).as("stele %s ran on the short path", args[0]).isTrue();
    assertThat(run.archive()).as("stele %s", args[0]).isEqualTo("stele.jsa");
    ranShort.add(args[0]);
    return run;
  }

  private static Run launch(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(CHECKOUT.resolve("stele").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile());
    pb.environment().put("STELE_REPO", repo.toString());
    pb.environment().put("STELE_PASSWORD", "short-path");
    pb.environment().put("STELE_JAVA_OPTS", StartLog.OPTIONS);
    pb.environment().remove("STELE_DIST");
    pb.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("stele %s ended", List.of(args)).isTrue();
    String errText = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(errText).as("the JVM listed its class path").contains("java.class.path = ");
    return new Run(p.exitValue(), Files.readString(out), errText);
  }
}
