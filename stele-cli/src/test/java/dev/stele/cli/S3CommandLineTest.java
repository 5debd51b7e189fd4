package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.testing.RandomTree;
import dev.stele.testing.Rgw;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line on {@code s3://} repositories, against Ceph RGW. */
class S3CommandLineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  private static String bucket(boolean locked) {
    return RgwBuckets.create(locked ? "cli-lock-" : "cli-plain-", locked);
  }

  private static Cli cli(String repo) {
    Rgw rgw = Rgw.shared();
    return new Cli(repo, "correct horse")
        .with("STELE_S3_ENDPOINT", rgw.endpoint().toString())
        .with("STELE_S3_REGION", rgw.region())
        .with("STELE_S3_PATH_STYLE", "true")
        .with("AWS_ACCESS_KEY_ID", rgw.accessKey())
        .with("AWS_SECRET_ACCESS_KEY", rgw.secretKey());
  }

  private static Cli.Run init(Cli cli, String mode) {
    List<String> args =
        new ArrayList<>(List.of("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1"));
    if (!mode.equals("none")) {
      args.addAll(List.of("--lock-mode", mode, "--min-retention", "1m"));
    }
    return cli.run(args.toArray(String[]::new));
  }

  @Test
  void backupAndRestoreOnALockedBucketAreByteIdentical() throws IOException {
    Cli cli = cli("s3://" + bucket(true) + "/repo");
    Cli.Run init = init(cli, "compliance");
    assertThat(init.exitCode()).as(init.stderr()).isZero();
    assertThat(init.stdout()).contains("versioning Enabled, object lock on");

    Path source = tmp.resolve("source");
    java.nio.file.Files.createDirectories(source.resolve("sub"));
    java.nio.file.Files.writeString(source.resolve("hello.txt"), "hello, bucket\n");
    RandomTree.writeRandom(source.resolve("sub/random.bin"), 3_000_000, new Random(5));
    Cli.Run create = cli.run("snapshot", "create", source.toString(), "--json");
    assertThat(create.exitCode()).as(create.stderr()).isZero();

    Path target = tmp.resolve("restored");
    Cli.Run restore = cli.run("restore", "latest:" + source, "--target", target.toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(TreeComparison.compare(source, target)).isEmpty();

    Cli.Run status = cli.run("repo", "status", "--json");
    assertThat(status.exitCode()).as(status.stderr()).isZero();
    JsonNode bucket = JSON.readTree(status.stdout()).get("bucket");
    assertThat(bucket.get("objectLock").asBoolean()).isTrue();
    assertThat(bucket.get("versioning").asText()).isEqualTo("Enabled");
    assertThat(cli.run("verify").exitCode()).isZero();
  }

  @Test
  void initRefusesALockModeTheBucketCannotHonour() {
    Cli cli = cli("s3://" + bucket(false) + "/repo");
    Cli.Run refused = init(cli, "compliance");
    assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.stderr())
        .contains("does not have object lock enabled")
        .contains("--lock-mode none")
        .doesNotContain("\tat ");
    Cli.Run plain = init(cli, "none");
    assertThat(plain.exitCode()).as(plain.stderr()).isZero();
  }

  @Test
  void initRefusesAPrefixThatHoldsAnything() {
    Cli cli = cli("s3://" + bucket(true) + "/repo");
    assertThat(init(cli, "governance").exitCode()).isZero();
    Cli.Run again = init(cli, "governance");
    assertThat(again.exitCode()).isNotZero();
    assertThat(again.stderr()).contains("not empty");
  }
}
