package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.Processes.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image: {@code deploy/image/build.sh} builds it from a clean clone of this commit
 * (given the distribution this build packaged, so Maven does not run twice), then it is run as a
 * cluster runs it. Needs podman as root, which {@code .ci/run} installs; without it these fail. The
 * clone holds what is committed: a change to the Containerfile or the launcher is tested once it is
 * committed.
 */
class ImageIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  // failsafe runs in the module's directory, stele-cli
  private static final Path CHECKOUT = Path.of("").toAbsolutePath().getParent();
  private static final String ID = UUID.randomUUID().toString().substring(0, 8);
  private static final String IMAGE = "localhost/stele:it-" + ID;
  // as readOnlyRootFilesystem with /tmp an emptyDir, the one writable place docs/operator.md names
  private static final List<String> READ_ONLY =
      List.of("--read-only", "--read-only-tmpfs=false", "--tmpfs", "/tmp");

  @TempDir static Path tmp;
  static String commit;
  static int containers;

  @BeforeAll
  static void buildFromACleanClone() throws Exception {
    commit = ok(run(CHECKOUT, Duration.ofSeconds(30), "git", "rev-parse", "HEAD")).strip();
    Path clone = tmp.resolve("clone");
    ok(run(tmp, Duration.ofMinutes(1), "git", "clone", "--quiet", CHECKOUT.toString(), "clone"));
    ok(run(clone, Duration.ofSeconds(30), "git", "checkout", "--quiet", commit));
    for (String part : List.of("lib", "native")) {
      copyTree(
          CHECKOUT.resolve("stele-cli/target/stele/" + part),
          clone.resolve("stele-cli/target/stele/" + part));
    }

    String built = ok(run(clone, Duration.ofMinutes(30), "deploy/image/build.sh", "--tag", IMAGE));

    assertThat(built.lines().reduce((a, b) -> b)).as("its last line").hasValue(IMAGE);
  }

  @AfterAll
  static void removeImage() throws Exception {
    // also removes the build's intermediate images, its parents
    ok(run(tmp, Duration.ofMinutes(1), "podman", "rmi", "--ignore", IMAGE));
  }

  @Test
  void versionNamesTheCommit() throws Exception {
    Result version = container(List.of(), "--version");

    assertThat(version.exitCode()).as(version.err()).isZero();
    assertThat(version.out().strip()).matches("stele \\S+ \\(commit " + commit + "\\)");
  }

  @Test
  void labelsNameSourceRevisionVersionAndCreation() throws Exception {
    JsonNode labels =
        JSON.readTree(
            ok(
                run(
                    tmp,
                    Duration.ofMinutes(1),
                    "podman",
                    "image",
                    "inspect",
                    "--format",
                    "{{json .Labels}}",
                    IMAGE)));

    assertThat(labels.path("org.opencontainers.image.revision").asText()).isEqualTo(commit);
    assertThat(labels.path("org.opencontainers.image.version").asText())
        .matches("\\d+\\.\\d+\\.\\d+\\S*");
    assertThat(labels.path("org.opencontainers.image.source").asText()).startsWith("https://");
    assertThat(Instant.parse(labels.path("org.opencontainers.image.created").asText()))
        .isBetween(Instant.now().minus(Duration.ofHours(1)), Instant.now());
  }

  @Test
  void demoPassesAsANonRootUserOnAReadOnlyRoot() throws Exception {
    Result demo = container(READ_ONLY, "demo");

    assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
    assertThat(demo.out()).contains("demo passed");
  }

  @Test
  void rootIsReadOnlyOnlyTmpIsWritableAndTheUserIsNotRoot() throws Exception {
    Result probe =
        container(
            Stream.concat(READ_ONLY.stream(), Stream.of("--entrypoint", "sh")).toList(),
            "-c",
            "id -u; touch /tmp/probe && echo tmp-writable; touch /opt/stele/probe");

    List<String> lines = probe.out().lines().toList();
    assertThat(lines).as(probe.err()).isNotEmpty();
    assertThat(Integer.parseInt(lines.get(0))).as("uid").isNotZero();
    assertThat(lines).contains("tmp-writable");
    assertThat(probe.exitCode()).isNotZero();
    assertThat(probe.err()).contains("/opt/stele/probe").contains("Read-only file system");
  }

  @Test
  void backupVerifyAndRestoreWriteNothingButRepositoryAndTargetNotEvenTmp() throws Exception {
    Result backup =
        container(
            List.of(
                "--read-only",
                "--read-only-tmpfs=false",
                "--tmpfs",
                "/data",
                "-e",
                "STELE_PASSWORD=image-test",
                "--entrypoint",
                "sh"),
            "-c",
            "stele repo init --repo /data/r && stele snapshot create --repo /data/r /opt/stele/lib"
                + " && stele verify --repo /data/r --read-data"
                + " && stele restore --repo /data/r latest --target /data/t"
                + " && cmp /opt/stele/lib/stele-cli-*.jar /data/t/opt/stele/lib/stele-cli-*.jar"
                + " && echo restored-exactly");

    assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
    assertThat(backup.out()).contains("no problems found").contains("restored-exactly");
  }

  /**
   * The image's three class-data archives, each made in the build on the class path the launcher
   * gives its commands: one the JVM cannot map (another path) it drops silently, and the command
   * starts without any.
   */
  @Test
  void eachKindOfCommandMapsItsArchiveOnItsClassPath() throws Exception {
    List<String> s3Keys =
        List.of(
            "-e", "AWS_ACCESS_KEY_ID=image-test",
            "-e", "AWS_SECRET_ACCESS_KEY=image-test",
            "-e", "AWS_REGION=us-east-1");
    String[] s3Command = {
      "snapshot", "list", "--repo", "s3://image-test/r", "--endpoint", "http://127.0.0.1:9"
    };

    assertThat(mapped(List.of(), "--version")).isEqualTo("stele.jsa on lib/");
    assertThat(mapped(s3Keys, s3Command)).isEqualTo("stele-s3.jsa on lib/");
    assertThat(mapped(List.of(), s3Command)).isEqualTo("stele-s3.jsa on lib/ and lib/remote/");
    assertThat(mapped(List.of(), "--help")).isEqualTo("stele-cluster.jsa on lib/ and lib/remote/");
  }

  /** The archive a command's JVM mapped ("none" if it mapped none) and its class path. */
  private static String mapped(List<String> options, String... args) throws Exception {
    List<String> withLog = new ArrayList<>(options);
    withLog.addAll(List.of("-e", "STELE_JAVA_OPTS=" + StartLog.OPTIONS));
    String err = container(withLog, args).err();
    assertThat(err).as("the JVM listed its class path").contains("java.class.path = ");
    return StartLog.archive(err)
        + (StartLog.onShortPath(err) ? " on lib/" : " on lib/ and lib/remote/");
  }

  /** {@code podman run} of the image with {@code options} and {@code args}; removed after. */
  private static Result container(List<String> options, String... args) throws Exception {
    String name = "stele-it-" + ID + "-" + ++containers;
    List<String> command = new ArrayList<>(List.of("podman", "run", "--rm", "--name", name));
    command.addAll(options);
    command.add(IMAGE);
    command.addAll(List.of(args));
    try {
      return run(tmp, Duration.ofMinutes(3), command.toArray(String[]::new));
    } finally {
      run(tmp, Duration.ofMinutes(1), "podman", "rm", "--force", "--ignore", name);
    }
  }

  /** {@code result}'s standard output, once it is known to have succeeded. */
  private static String ok(Result result) {
    assertThat(result.exitCode()).as(result.err()).isZero();
    return result.out();
  }

  private static Result run(Path dir, Duration timeout, String... command) throws Exception {
    return Processes.run(tmp, dir, timeout, command);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
